import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants";

/**
 * Mails kept instead of sent when no SMTP server is configured (`SMTP_URL` unset): the embedded
 * default's dev outbox. The server log shows each one; rows older than a day are swept on insert.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [index("mail_outbox_tenant").on(t.tenantId, t.createdAt)],
);
export type MailOutboxRow = typeof mailOutbox.$inferSelect;
