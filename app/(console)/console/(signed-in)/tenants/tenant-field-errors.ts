import "server-only";
import { AppError } from "@/lib/errors";

/**
 * Runs a tenant write and turns the domain's validation failures (`tenant.<path>: <message>`, e.g. an
 * origin that is not on the RP ID) into field errors: thrown as a ZodError-shaped error, which
 * consoleAction maps to `fieldErrors[<path>]`, so the message appears next to the field.
 */
export async function withTenantFieldErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && error.code === "VALIDATION_FAILED" && error.details.length > 0) {
      const issues = error.details.map((detail) => {
        const match = /^tenant\.([^:\s]+): (.*)$/s.exec(detail);
        return match ? { path: match[1]!.split("."), message: match[2]! } : { path: [], message: detail };
      });
      throw Object.assign(new Error(error.message), { name: "ZodError", issues });
    }
    throw error;
  }
}
