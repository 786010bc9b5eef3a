import { getLogger } from "@/lib/log";
import { deleteOldOutboxMail, insertOutboxMail } from "./store";
import { mailSettings, smtpTransport } from "./transport";

/** A plain-text mail. `to` is one address; header fields must not hold line breaks. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface SentMail {
  via: "smtp" | "outbox";
  /** The SMTP server's message id, or the outbox row's id. */
  id: string;
}

const OUTBOX_MAX_AGE_SECONDS = 24 * 3600;

/** Header values on one line, control characters removed (nodemailer encodes the rest). */
const oneLine = (value: string) => value.replace(/\p{Cc}+/gu, " ").trim();

/**
 * Sends a mail for a tenant: over SMTP when `SMTP_URL` is set, else into the dev outbox (a table the
 * server log announces, one line with the text, so `npm start` users can read their codes). An SMTP
 * failure throws; the caller's request fails with 500 and the cause goes to the log.
 */
export async function sendMail(tenantId: string, mail: Mail): Promise<SentMail> {
  const settings = mailSettings();
  const to = oneLine(mail.to);
  const subject = oneLine(mail.subject);
  if (settings.smtpUrl) {
    const info = (await smtpTransport(settings.smtpUrl).sendMail({
      from: settings.from,
      to,
      subject,
      text: mail.text,
    })) as { messageId?: string };
    getLogger().info({ tenantId, to, subject, messageId: info.messageId }, "mail sent");
    return { via: "smtp", id: info.messageId ?? "" };
  }
  await deleteOldOutboxMail(tenantId, OUTBOX_MAX_AGE_SECONDS);
  const row = await insertOutboxMail({ tenantId, to, subject, text: mail.text });
  getLogger().info(
    { tenantId, to, subject, outboxId: row.id },
    `dev outbox (SMTP_URL is not set), mail to ${to}: ${mail.text.split("\n")[0]}`,
  );
  return { via: "outbox", id: row.id };
}
