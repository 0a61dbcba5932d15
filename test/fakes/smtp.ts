import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  /** Envelope sender and recipients, as given in MAIL FROM / RCPT TO. */
  from: string;
  to: string[];
  subject: string;
  /** The text body, transfer encoding undone. */
  text: string;
  raw: string;
  /** Whether the session had upgraded to TLS, and the user it authenticated as. */
  secure: boolean;
  user: string | null;
}

/** A server as a real relay is set up: STARTTLS, then AUTH with these credentials, before any MAIL FROM. */
export interface SmtpSecurity {
  user: string;
  pass: string;
}

/**
 * A self-signed certificate for 127.0.0.1, made with openssl for this run;
 * `caFile` is what a client's NODE_EXTRA_CA_CERTS names to trust it.
 */
function localCertificate(): { key: Buffer; cert: Buffer; caFile: string } {
  const dir = mkdtempSync(join(tmpdir(), "mw-smtp-"));
  const [keyFile, certFile] = [join(dir, "key.pem"), join(dir, "cert.pem")];
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", keyFile, "-out", certFile, "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { stdio: "ignore" });
  return { key: readFileSync(keyFile), cert: readFileSync(certFile), caFile: certFile };
}

/**
 * An SMTP sink on 127.0.0.1 (a free port) that keeps every message. Without
 * `security` it accepts them without TLS or authentication; with it, it
 * offers STARTTLS and refuses mail until the client upgraded and
 * authenticated (smtp-server refuses AUTH on a plain connection). It decodes
 * what nodemailer sends a plain-text message as (7bit or quoted-printable,
 * ASCII subject); anything richer stays in `raw`.
 */
export class FakeSmtp {
  readonly messages: ReceivedMail[] = [];
  url = "";
  /** With `security`: the certificate file a client trusts (NODE_EXTRA_CA_CERTS). */
  readonly caFile: string | undefined;
  /** Recipients refused at RCPT TO with 550, as a server does an address it does not know. */
  readonly refuse = new Set<string>();
  /** Every RCPT TO address, accepted or refused, in order: how often delivery to a recipient was tried. */
  readonly rcptTo: string[] = [];
  private readonly server: SMTPServer;

  constructor(private readonly security?: SmtpSecurity) {
    const tls = security ? localCertificate() : undefined;
    this.caFile = tls?.caFile;
    this.server = new SMTPServer({
      ...(security && tls
        ? {
            key: tls.key,
            cert: tls.cert,
            authMethods: ["PLAIN", "LOGIN"],
            onAuth: (auth, _session, callback) => {
              if (auth.username === security.user && auth.password === security.pass) callback(null, { user: auth.username });
              else callback(new Error("Invalid username or password"));
            },
          }
        : { authOptional: true, disabledCommands: ["STARTTLS"] }),
      logger: false,
      onRcptTo: (address, _session, callback) => {
        this.rcptTo.push(address.address);
        if (!this.refuse.has(address.address)) return callback();
        callback(Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected: User unknown`), { responseCode: 550 }));
      },
      onData: (stream, session, callback) => this.keep(stream, session, callback),
    });
  }

  private keep(stream: NodeJS.ReadableStream, session: { envelope: { mailFrom: false | { address: string }; rcptTo: { address: string }[] }; secure: boolean; user?: unknown }, callback: () => void) {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      this.messages.push({
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
        to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
        ...parse(raw),
        raw,
        secure: session.secure,
        user: typeof session.user === "string" ? session.user : null,
      });
      callback();
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    const port = (this.server.server.address() as AddressInfo).port;
    const credentials = this.security ? `${encodeURIComponent(this.security.user)}:${encodeURIComponent(this.security.pass)}@` : "";
    this.url = `smtp://${credentials}127.0.0.1:${port}`;
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
