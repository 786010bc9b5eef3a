import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants";

/**
 * A tenant's users. Passkey API users are known by the relying party's own id (`external_id`, the
 * `user_id` of the Passkey API); the WebAuthn user handle is that id's UTF-8 bytes.
 */
export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    externalId: text("external_id"),
    username: text("username"),
    displayName: text("display_name"),
    icon: text("icon"),
    /** Profile claims the admin API sets (Hanko's `name`, `given_name`, `family_name`, `picture`). */
    name: text("name"),
    givenName: text("given_name"),
    familyName: text("family_name"),
    picture: text("picture"),
    /**
     * When an operator locked the user (console): a locked user starts no session and completes no
     * passkey or UAF ceremony on any surface, and their sessions end when the lock is set. Null: unlocked.
     */
    lockedAt: timestamp("locked_at", { withTimezone: true }),
    /** The start of the user's last own session (impersonation excluded); null before the first sign-in. */
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_tenant_external_id").on(t.tenantId, t.externalId),
    index("users_tenant_created").on(t.tenantId, t.createdAt),
    // Platform users (no external id) log in by username: unique per tenant, case-insensitively.
    uniqueIndex("users_tenant_username")
      .on(t.tenantId, sql`lower(${t.username})`)
      .where(sql`${t.externalId} is null and ${t.username} is not null`),
  ],
);

export type UserRow = typeof users.$inferSelect;
