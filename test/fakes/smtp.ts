import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  /** Envelope sender and recipients, as given in MAIL FROM / RCPT TO. */
  from: string;
  to: string[];
  subject: string;
  /** The text body, transfer encoding undone. */
  text: string;
  raw: string;
}

/**
 * An SMTP sink on 127.0.0.1 (a free port) that accepts every message without
 * TLS or authentication and keeps it. It decodes what nodemailer sends a
 * plain-text message as (7bit or quoted-printable, ASCII subject); anything
 * richer stays in `raw`.
 */
export class FakeSmtp {
  readonly messages: ReceivedMail[] = [];
  url = "";
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        this.messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          ...parse(raw),
          raw,
        });
        callback();
      });
    },
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function parse(raw: string): { subject: string; text: string } {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const body = raw.slice(split + 4).replace(/\r\n$/, "");
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1] ?? "";
  const quotedPrintable = /quoted-printable/i.test(header("Content-Transfer-Encoding"));
  const text = quotedPrintable ? body.replace(/=\r\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : body;
  return { subject: header("Subject"), text: text.replace(/\r\n/g, "\n") };
}
