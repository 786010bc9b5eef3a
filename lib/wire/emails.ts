import { z } from "zod";
import type { EmailRow } from "@/lib/db/schema";

export const Email = z
  .object({
    id: z.uuid(),
    address: z.string(),
    is_verified: z.boolean(),
    is_primary: z.boolean(),
  })
  .meta({ id: "Email", description: "Hanko's `EmailResponse`" });

/** An address on the wire (Hanko's `EmailResponse`). */
export const emailWire = (row: EmailRow): z.input<typeof Email> => ({
  id: row.id,
  address: row.address,
  is_verified: row.verified,
  is_primary: row.isPrimary,
});

/** Hanko's admin `Email`. */
export const AdminEmail = z
  .object({
    id: z.uuid(),
    address: z.string(),
    is_verified: z.boolean(),
    is_primary: z.boolean(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "AdminEmail", description: "An address of a user (Hanko's admin `Email`)" });

/** An address on the admin wire. */
export const adminEmailWire = (row: EmailRow): z.input<typeof AdminEmail> => ({
  id: row.id,
  address: row.address,
  is_verified: row.verified,
  is_primary: row.isPrimary,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});
