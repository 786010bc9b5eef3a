import { z } from "zod";

type Shape = z.core.$ZodShape;

/** Every field optional, and so on inside nested objects; lists, records and scalars are set whole. */
export type PatchShape<S extends Shape> = {
  [K in keyof S]: z.ZodOptional<
    S[K] extends z.ZodObject<infer Inner> ? z.ZodObject<PatchShape<Inner>> : S[K]
  >;
};

/**
 * The patch schema of a settings schema: a deep partial of it. Rules across fields of one object (the
 * username's minLength ≤ maxLength) are left out here, where a patch may hold only one of the fields;
 * they run when the merged section is parsed whole. Unknown keys are dropped, as by every z.object.
 */
export function settingsPatch<S extends Shape>(schema: z.ZodObject<S>): z.ZodObject<PatchShape<S>> {
  const shape = Object.fromEntries(
    Object.entries(schema.shape).map(([key, field]) => [
      key,
      z.optional(field instanceof z.ZodObject ? settingsPatch(field) : field),
    ]),
  );
  return z.object(shape) as unknown as z.ZodObject<PatchShape<S>>;
}
