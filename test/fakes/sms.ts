import { randomBytes } from "node:crypto";
import { FakeServer, type FakeAnswer, type FakeRequest } from "./fake-server.ts";

export interface SentSms {
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  body: string;
  sid: string;
}

/**
 * Twilio's Messages API (contract sheet, section 6) on 127.0.0.1:
 * `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, Basic
 * `AccountSid:AuthToken`, form fields To (E.164), From or
 * MessagingServiceSid, Body (at most 1600 characters); 201 with the message;
 * errors `{code, message, more_info, status}`: 401 20003, 400 21211 (bad To),
 * 400 21602 (no Body), 429 20429 when `failNext` says so.
 */
export class FakeSms extends FakeServer {
  readonly sent: SentSms[] = [];
  /** Answers the next N sends with 429 20429 (Twilio's "too many requests"). */
  failNext = 0;
  /** Numbers answered 400 21610, as Twilio does a recipient who unsubscribed. */
  readonly refuse = new Set<string>();

  constructor(
    readonly accountSid: string,
    readonly authToken: string,
  ) {
    super();
    this.route("POST", "/2010-04-01/Accounts/:sid/Messages.json", (request, params) => this.send(request, params.sid!));
  }

  private error(status: number, code: number, message: string): FakeAnswer {
    return this.json(status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
  }

  private send(request: FakeRequest, accountSid: string): FakeAnswer {
    const expected = `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString("base64")}`;
    if (accountSid !== this.accountSid || request.headers.authorization !== expected) return this.error(401, 20003, "Authenticate");
    if (this.failNext > 0) {
      this.failNext -= 1;
      return this.error(429, 20429, "Too Many Requests");
    }
    const form = new URLSearchParams(request.body);
    const to = form.get("To") ?? "";
    if (!/^\+[1-9]\d{6,14}$/.test(to)) return this.error(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (this.refuse.has(to)) return this.error(400, 21610, "Attempt to send to unsubscribed recipient");
    const body = form.get("Body") ?? "";
    if (!body) return this.error(400, 21602, "Message body is required.");
    if (body.length > 1600) return this.error(400, 21617, "The concatenated message body exceeds the 1600 character limit.");
    const sid = `SM${randomBytes(16).toString("hex")}`;
    const message = { to, from: form.get("From"), messagingServiceSid: form.get("MessagingServiceSid"), body, sid };
    this.sent.push(message);
    return this.json(201, { sid, account_sid: accountSid, to, from: message.from, body, status: "queued", num_segments: String(Math.ceil(body.length / 153)), date_created: new Date().toUTCString() });
  }
}
