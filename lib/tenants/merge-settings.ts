/** A patch of `T`: every field optional, down through nested objects; arrays are replaced whole. */
export type Patch<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: Patch<T[K]> | undefined }
    : T;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * `patch` merged into `base`, field by field at every depth: an absent or undefined field keeps the
 * base's value, `null` clears, arrays replace, objects (and records such as the rate limits, by key)
 * merge. Applies settings patches and completes stored sections with the defaults of fields added later.
 */
export function mergeSettings<T>(base: T, patch: Patch<T> | undefined): T {
  if (!isPlainObject(base) || !isPlainObject(patch)) return (patch === undefined ? base : patch) as T;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value !== undefined) merged[key] = mergeSettings(base[key], value);
  }
  return merged as T;
}
