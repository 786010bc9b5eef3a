import { z } from "zod";

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A user id in the path: a UUID (400 otherwise, as Hanko). */
export const UserIdParam = z
  .string()
  .regex(UUID, "must be a UUID")
  .transform((value) => value.toLowerCase())
  .meta({ description: "The user's UUID", example: "7d8a2c1e-4b5a-4c6d-8e7f-9a0b1c2d3e4f" });
