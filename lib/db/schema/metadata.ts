import { jsonb, pgTable, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants";
import { users } from "./users";

/** A JSON object of user metadata (each of the three kinds is an object when set). */
export type MetadataObject = Record<string, unknown>;

/**
 * A user's metadata (Hanko's `user_metadata`): public (the user reads it), private (admin only) and
 * unsafe (the user writes it through the profile flow). One row per user, gone with the user.
 */
export const userMetadata = pgTable("user_metadata", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  tenantId: uuid("tenant_id")
    .notNull()
    .references(() => tenants.id, { onDelete: "cascade" }),
  publicMetadata: jsonb("public_metadata").$type<MetadataObject>(),
  privateMetadata: jsonb("private_metadata").$type<MetadataObject>(),
  unsafeMetadata: jsonb("unsafe_metadata").$type<MetadataObject>(),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
});
export type UserMetadataRow = typeof userMetadata.$inferSelect;
