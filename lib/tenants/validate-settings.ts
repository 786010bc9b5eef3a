import { ValidationFailed, formatZodIssues } from "@/lib/errors";
import type { z } from "zod";

/** Parses tenant settings with `schema`, turning zod issues into ValidationFailed. */
export function parseSettings<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success)
    throw new ValidationFailed(formatZodIssues(result.error, "tenant"), "Invalid tenant settings");
  return result.data;
}

/** WebAuthn: the RP ID must equal the origin's host or be a registrable suffix of it. */
export function checkOriginsMatchRpId(rpId: string, origins: string[]): void {
  const wrong = origins.filter((origin) => {
    const host = new URL(origin).hostname;
    return host !== rpId && !host.endsWith(`.${rpId}`);
  });
  if (wrong.length > 0) {
    throw new ValidationFailed(
      wrong.map((origin) => `tenant.origins: ${origin} is not on the RP ID ${rpId}`),
    );
  }
}
