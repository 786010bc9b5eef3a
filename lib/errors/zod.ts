import type { z } from "zod";

/** One readable line per zod issue, prefixed with where it is: `body.username: Too big: …`. */
export function formatZodIssues(error: z.ZodError, where: string): string[] {
  return error.issues.map((issue) => {
    const at = [where, ...issue.path.map(String)].join(".");
    return `${at}: ${issue.message}`;
  });
}
