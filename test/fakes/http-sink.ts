import { setTimeout as sleep } from "node:timers/promises";
import { FakeServer, type FakeAnswer } from "./fake-server.ts";

/**
 * A plain HTTP endpoint standing in for health-check URLs and chat incoming
 * webhooks: it records every request and answers after `delayMs` with `status`.
 */
export class HttpSink extends FakeServer {
  delayMs = 0;
  status = 200;

  protected override async answer(): Promise<FakeAnswer> {
    await sleep(this.delayMs);
    return this.json(this.status, { ok: this.status < 400 });
  }
}
