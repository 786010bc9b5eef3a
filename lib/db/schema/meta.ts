import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Instance-wide facts, such as whether the demo tenant was seeded. */
export const sesameMeta = pgTable("sesame_meta", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
