import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants";
import { type ApiKeyScope } from "../enums";
export { API_KEY_SCOPES, type ApiKeyScope } from "../enums";

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The first characters of the key, kept in clear so people can tell keys apart. */
    prefix: text("prefix").notNull(),
    /** Hex SHA-256 of the whole key; the key itself is never stored. */
    secretHash: text("secret_hash").notNull(),
    scopes: text("scopes").array().$type<ApiKeyScope[]>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("api_keys_secret_hash").on(t.secretHash), index("api_keys_tenant").on(t.tenantId)],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
