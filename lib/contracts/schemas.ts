import { z } from "zod";

/** Shared wire schemas, named once so every OpenAPI document reuses them as components. */
export const PlatformError = z
  .object({
    code: z.number().int().meta({ description: "The HTTP status code", example: 401 }),
    message: z.string().meta({ example: "Unauthorized" }),
  })
  .meta({ id: "Error", description: "Error body of the platform APIs (public, admin, flow, health)." });

export const TenantIdParam = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "must be a UUID of 36 characters")
  .transform((value) => value.toLowerCase())
  .meta({
    description: "The tenant's UUID (36 characters)",
    example: "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f",
  });

export function platformErrors(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: ERROR_DESCRIPTIONS[status] ?? "Error",
        content: { "application/json": { schema: PlatformError } },
      },
    ]),
  );
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Bad Request: the request could not be processed",
  401: "Unauthorized: missing or invalid credentials",
  404: "Not Found",
  413: "Request body over 64 KiB",
  415: "Body is not application/json",
  500: "Internal Server Error, also when the database does not answer",
};
