import { z } from "zod";
import { ValidationFailed } from "@/lib/errors";

/** An email address as Sesame keeps it: trimmed, lower-cased (Hanko's rule), at most 254 characters. */
export const EmailAddress = z
  .string()
  .trim()
  .max(254, "must be at most 254 characters")
  .toLowerCase()
  .pipe(z.email({ error: "must be an email address" }));

/** The normalised address, or ValidationFailed naming the field. */
export function normalizeAddress(value: string, field = "address"): string {
  const result = EmailAddress.safeParse(value);
  if (!result.success) throw new ValidationFailed(result.error.issues.map((i) => `${field}: ${i.message}`));
  return result.data;
}
