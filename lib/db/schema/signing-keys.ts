import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { JWK } from "jose";
import { tenants, type SigningAlgorithm } from "./tenants";

export const signingKeys = pgTable(
  "signing_keys",
  {
    /** Also the JWK `kid`. */
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    algorithm: text("algorithm").$type<SigningAlgorithm>().notNull(),
    publicJwk: jsonb("public_jwk").$type<JWK>().notNull(),
    /** The private JWK, AES-256-GCM encrypted under a key derived from the master secret. */
    privateKeyEncrypted: text("private_key_encrypted").notNull(),
    /** Exactly one key per tenant signs; the others stay published so earlier tokens still verify. */
    active: boolean("active").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    retiredAt: timestamp("retired_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("signing_keys_one_active")
      .on(t.tenantId)
      .where(sql`${t.active}`),
    index("signing_keys_tenant").on(t.tenantId),
  ],
);

export type SigningKeyRow = typeof signingKeys.$inferSelect;
