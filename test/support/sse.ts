import { createParser, type EventSourceMessage } from "eventsource-parser";

export interface SseAnswer {
  status: number;
  contentType: string | null;
  /** Each event's data parsed as JSON, in order. */
  events: Record<string, unknown>[];
  /** The JSON body of an answer that is not a stream (an error). */
  body?: Record<string, unknown>;
}

/**
 * POSTs JSON and reads the answer as an EventSource does (eventsource-parser:
 * the WHATWG framing, `data:` lines, blank-line event ends, comments,
 * `retry`). `onEvent` may abort through the controller it is given, as a
 * browser tab closed mid-answer does.
 */
export async function postSse(url: string, headers: Record<string, string>, body: unknown, onEvent?: (event: Record<string, unknown>, abort: () => void) => void): Promise<SseAnswer> {
  const controller = new AbortController();
  const res = await fetch(url, { method: "POST", headers: { ...headers, "content-type": "application/json", accept: "text/event-stream" }, body: JSON.stringify(body), signal: controller.signal });
  const contentType = res.headers.get("content-type");
  if (!contentType?.startsWith("text/event-stream")) return { status: res.status, contentType, events: [], body: (await res.json()) as Record<string, unknown> };
  const events: Record<string, unknown>[] = [];
  const parser = createParser({
    onEvent: (message: EventSourceMessage) => {
      const event = JSON.parse(message.data) as Record<string, unknown>;
      events.push(event);
      onEvent?.(event, () => controller.abort());
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  return { status: res.status, contentType, events };
}

/** The answer's text: its token events joined. */
export const tokensOf = (answer: SseAnswer) =>
  answer.events
    .filter((event) => event.type === "token")
    .map((event) => event.content)
    .join("");
