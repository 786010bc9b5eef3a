import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants";
import { type WebhookDeliveryStatus } from "../enums";
export { WEBHOOK_DELIVERY_STATUSES, type WebhookDeliveryStatus } from "../enums";

/** One subscription of an endpoint: Hanko's `{id, event}`; `event` is an event name or a prefix of one. */
export interface WebhookSubscription {
  id: string;
  event: string;
}

/** A tenant's webhook endpoint (owner: lib/webhooks). */
export const webhooks = pgTable(
  "webhooks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    callback: text("callback").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    events: jsonb("events").$type<WebhookSubscription[]>().notNull(),
    /** `whsec_…`, sealed with the master secret (lib/crypto `seal`). */
    secretEncrypted: text("secret_encrypted").notNull(),
    /** The secret before the last rotation: deliveries are signed with both until `previous_secret_until`. */
    previousSecretEncrypted: text("previous_secret_encrypted"),
    previousSecretUntil: timestamp("previous_secret_until", { withTimezone: true }),
    /** Failed deliveries since the last success (Hanko's `failures`). */
    failures: integer("failures").notNull().default(0),
    /** When the current streak of failures began (null after a success): 5 days of it disables the endpoint. */
    failingSince: timestamp("failing_since", { withTimezone: true }),
    /** Hanko's `expires_at`: 30 days after creation or the last success (informational). */
    expiresAt: timestamp("expires_at", { withTimezone: true })
      .notNull()
      .default(sql`now() + interval '30 days'`),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [index("webhooks_tenant").on(t.tenantId, t.createdAt)],
);

/** The outbox: one row per event, written in the transaction of the change it reports. */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    event: text("event").notNull(),
    data: jsonb("data").$type<unknown>(),
    // clock_timestamp(): events of one transaction keep their order (now() is the transaction's start).
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [index("webhook_events_tenant").on(t.tenantId, t.createdAt)],
);

/** One event to one endpoint; its id is the `webhook-id` header of every attempt. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    /** The endpoint; null for a direct delivery (a back-channel logout token to `target`). */
    webhookId: uuid("webhook_id").references(() => webhooks.id, { onDelete: "cascade" }),
    /**
     * A direct delivery's URL (a client's `backchannel_logout_uri`), set exactly when `webhook_id` is
     * null: it goes through the same queue, retries and SSRF guard as an endpoint's deliveries.
     */
    target: text("target"),
    eventId: uuid("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    status: text("status").$type<WebhookDeliveryStatus>().notNull().default("pending"),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, precision: 6 }).defaultNow(),
    /** A worker holds the delivery until then; past it, another worker may claim it again. */
    leaseUntil: timestamp("lease_until", { withTimezone: true, precision: 6 }),
    /** Which claim holds the lease: only that claim may record the attempt. */
    leaseToken: uuid("lease_token"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 })
      .notNull()
      .default(sql`clock_timestamp()`),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_deliveries_due")
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    // The fair claim walks the tenants with pending deliveries and takes each one's earliest due rows,
    // counting its leased ones; the retention sweep finds the finished ones.
    index("webhook_deliveries_tenant_due")
      .on(t.tenantId, t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    index("webhook_deliveries_leased")
      .on(t.tenantId)
      .where(sql`status = 'pending' and lease_until is not null`),
    index("webhook_deliveries_finished")
      .on(t.updatedAt)
      .where(sql`status <> 'pending'`),
    index("webhook_deliveries_webhook").on(t.webhookId, t.createdAt),
    index("webhook_deliveries_event").on(t.eventId),
  ],
);

/** One HTTP attempt of a delivery. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attemptedAt: timestamp("attempted_at", { withTimezone: true, precision: 6 }).notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    /** The first 2 KiB of the response body. */
    response: text("response"),
    error: text("error"),
  },
  (t) => [index("webhook_attempts_delivery").on(t.deliveryId, t.attemptedAt)],
);

export type WebhookRow = typeof webhooks.$inferSelect;
export type WebhookEventRow = typeof webhookEvents.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
