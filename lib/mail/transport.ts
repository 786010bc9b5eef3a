import nodemailer, { type Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { getConfig } from "@/lib/config";

/** Where mail goes: an SMTP server, or (no `SMTP_URL`) the dev outbox in the database. */
export interface MailSettings {
  smtpUrl: string | undefined;
  from: string;
}

const OVERRIDE = Symbol.for("sesame.mailSettings");
const TRANSPORT = Symbol.for("sesame.mailTransport");
type Holder = {
  [OVERRIDE]?: MailSettings;
  [TRANSPORT]?: { url: string; transporter: Transporter };
};
const holder = globalThis as Holder;

/** Chooses the mail settings instead of the configuration's (tests, tools); `undefined` restores them. */
export function configureMail(settings: MailSettings | undefined): void {
  if (settings) holder[OVERRIDE] = settings;
  else delete holder[OVERRIDE];
}

export function mailSettings(): MailSettings {
  if (holder[OVERRIDE]) return holder[OVERRIDE];
  const config = getConfig();
  return { smtpUrl: config.smtpUrl, from: config.smtpFrom };
}

/**
 * One nodemailer SMTP transport per process (a connection per mail), rebuilt when the URL changes.
 * Options in the URL's query (`?pool=true`, `?requireTLS=true`, …) apply as nodemailer documents.
 */
export function smtpTransport(url: string): Transporter {
  const current = holder[TRANSPORT];
  if (current?.url === url) return current.transporter;
  current?.transporter.close();
  // Bounded waits: a passcode request must not hang on a dead mail server.
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  } satisfies SMTPTransport.Options & { url: string });
  holder[TRANSPORT] = { url, transporter };
  return transporter;
}

/** Closes the SMTP transport (tests stopping their server, shutdown). */
export function closeMailTransport(): void {
  holder[TRANSPORT]?.transporter.close();
  delete holder[TRANSPORT];
}
