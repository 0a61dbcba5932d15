// The assistant chat (spec 2, 4.6) on the staff AJAX: conversations, and answers streamed as
// server-sent events ({type: "token"} pieces, then {type: "done"} or {type: "error"}).
import { ajax, sessionNonce } from "./ajax.js";

const root = document.getElementById("chat");
const $ = (id) => document.getElementById(id);
const list = $("conversations");
const messages = $("messages");
const form = $("chat-form");
const input = $("chat-message");
const errorBox = $("chat-error");
let conversationId = root.dataset.conversation ? Number(root.dataset.conversation) : null;
let ticket = root.dataset.ticket ?? null;
let streaming = null; // the AbortController of the answer under way

function fail(message) {
  errorBox.textContent = message;
  errorBox.hidden = false;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function citedLinks(numbers) {
  const line = element("span", "cited", "Cited: ");
  numbers.forEach((number, i) => {
    if (i > 0) line.append(", ");
    const link = element("a", "", `#${number}`);
    link.href = `/console/tickets/${encodeURIComponent(number)}`;
    line.append(link);
  });
  return line;
}

/** One message; its text is a text node, never markup. */
function addMessage(role, content, cited = []) {
  const item = element("li", role);
  item.append(element("span", "who", role === "user" ? "You" : "Assistant"));
  const text = element("span", "text", content);
  item.append(text);
  if (cited.length) item.append(citedLinks(cited));
  messages.append(item);
  return { item, text };
}

function showContext() {
  $("chat-context").hidden = !ticket;
  $("chat-context-text").textContent = ticket ? `Asking about ticket #${ticket}: "this ticket" means it.` : "";
}

function setConversation(id, title) {
  conversationId = id;
  $("chat-heading").textContent = id ? title || "Untitled conversation" : "New conversation";
  $("chat-delete").hidden = !id;
  const url = new URL(location.href);
  if (id) url.searchParams.set("c", String(id));
  else url.searchParams.delete("c");
  history.replaceState(null, "", url);
  for (const link of list.querySelectorAll("a")) link.setAttribute("aria-current", String(Number(link.dataset.id) === id));
}

async function loadList() {
  const { conversations } = await ajax("GET", "ai-assistant/conversations");
  list.replaceChildren(
    ...conversations.map((conversation) => {
      const item = element("li");
      const link = element("a", "", conversation.title || `Conversation ${conversation.id}`);
      link.href = `?c=${conversation.id}`;
      link.dataset.id = String(conversation.id);
      link.setAttribute("aria-current", String(conversation.id === conversationId));
      link.addEventListener("click", (event) => {
        event.preventDefault();
        open(conversation.id).catch((error) => fail(error.message));
      });
      item.append(link);
      return item;
    }),
  );
}

async function open(id) {
  errorBox.hidden = true;
  const conversation = await ajax("GET", `ai-assistant/conversations/${id}`);
  messages.replaceChildren();
  for (const message of conversation.messages) addMessage(message.role, message.content, message.cited_tickets);
  setConversation(conversation.id, conversation.title);
}

/** Reads `data:` events off a streamed response body. */
async function* events(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = frame
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart())
        .join("\n");
      if (data) yield JSON.parse(data);
    }
  }
}

function setStreaming(controller) {
  streaming = controller;
  $("chat-send").disabled = Boolean(controller);
  $("chat-stop").hidden = !controller;
}

async function ask(message) {
  errorBox.hidden = true;
  addMessage("user", message);
  const answer = addMessage("assistant", "");
  answer.item.setAttribute("aria-busy", "true");
  const controller = new AbortController();
  setStreaming(controller);
  try {
    const res = await fetch("/scp/ajax.php/ai-assistant/chat", {
      method: "POST",
      credentials: "same-origin",
      signal: controller.signal,
      headers: { "content-type": "application/json", "x-nonce": sessionNonce(), accept: "text/event-stream" },
      body: JSON.stringify({ message, agent_name: root.dataset.agent, ...(ticket && { ticket_number: ticket }), ...(conversationId && { conversation_id: conversationId }) }),
    });
    if (!res.ok || !res.headers.get("content-type")?.startsWith("text/event-stream")) {
      const body = await res.json().catch(() => null);
      throw new Error((typeof body?.data === "string" && body.data) || body?.message || `The assistant could not answer (${res.status}).`);
    }
    for await (const event of events(res.body)) {
      if (event.type === "token") answer.text.textContent += event.content;
      else if (event.type === "done") {
        if (event.cited_tickets.length) answer.item.append(citedLinks(event.cited_tickets));
        const first = !conversationId;
        setConversation(event.conversation_id, first ? message.slice(0, 60) : $("chat-heading").textContent);
        await loadList();
      } else if (event.type === "error") throw new Error(event.message);
    }
  } catch (error) {
    if (controller.signal.aborted) answer.item.append(element("span", "who", "(stopped: this answer was not kept)"));
    else fail(error.message);
  } finally {
    answer.item.removeAttribute("aria-busy");
    setStreaming(null);
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const message = input.value.trim();
  if (!message || streaming) return;
  input.value = "";
  ask(message);
});
// Enter sends, Shift+Enter starts a new line.
input.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey) {
    event.preventDefault();
    form.requestSubmit();
  }
});
$("chat-stop").addEventListener("click", () => streaming?.abort());
$("chat-new").addEventListener("click", () => {
  streaming?.abort();
  messages.replaceChildren();
  setConversation(null);
  input.focus();
});
$("chat-delete").addEventListener("click", async () => {
  if (!conversationId || !confirm("Delete this conversation and its messages?")) return;
  try {
    await ajax("DELETE", `ai-assistant/conversations/${conversationId}`);
    messages.replaceChildren();
    setConversation(null);
    await loadList();
  } catch (error) {
    fail(error.message);
  }
});
$("chat-context-clear").addEventListener("click", () => {
  ticket = null;
  showContext();
});

showContext();
loadList()
  .then(() => (conversationId ? open(conversationId) : undefined))
  .catch((error) => fail(error.message));
