/** A JSON value as JSON.parse returns it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

const isObject = (value: unknown): value is Record<string, JsonValue> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * RFC 7396 JSON Merge Patch (section 2, MergePatch(Target, Patch)): an object patch merges into the
 * target key by key, recursively, and a `null` member removes its key; any other patch (array, scalar,
 * null) replaces the target whole. Neither argument is modified.
 */
export function mergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isObject(patch)) return patch;
  const result: Record<string, JsonValue> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}
