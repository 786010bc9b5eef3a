import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { listOutbox } from "@/lib/mail";

export interface ReceivedMail {
  /** The SMTP envelope's recipients. */
  to: string[];
  from: string;
  parsed: ParsedMail;
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`, for configureMail. */
  url: string;
  received: ReceivedMail[];
  /** Refuse the next mails with an SMTP 550 (to test a failing mail server). */
  refuse: boolean;
  /** The newest mail to `address`, waiting up to `timeoutMs` for it. */
  mailTo(address: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** A real SMTP server on loopback (no TLS, no auth) that parses every message it accepts. */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const state = { refuse: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      if (state.refuse) {
        stream.resume();
        stream.on("end", () =>
          callback(Object.assign(new Error("mailbox unavailable"), { responseCode: 550 })),
        );
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            parsed,
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    get refuse() {
      return state.refuse;
    },
    set refuse(value: boolean) {
      state.refuse = value;
    },
    async mailTo(address, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = received.findLast((candidate) => candidate.to.includes(address));
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`no mail to ${address} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The 6-digit code in a mail's text. */
export function codeIn(text: string | undefined): string {
  const code = /\b(\d{6})\b/.exec(text ?? "")?.[1];
  if (!code) throw new Error(`no 6-digit code in ${JSON.stringify(text)}`);
  return code;
}

/** The code of the newest dev-outbox mail to `address`. */
export async function outboxCode(tenantId: string, address: string): Promise<string> {
  const [mail] = await listOutbox(tenantId, { to: address, limit: 1 });
  if (!mail) throw new Error(`no outbox mail to ${address}`);
  return codeIn(mail.text);
}
