import type { MetadataObject } from "@/lib/db/schema";

const isObject = (value: unknown): value is MetadataObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The RFC 7396 merge patch that turns `from` into `to` (the console's metadata editor shows a kind
 * whole and saves only what the operator changed, so `patchMetadata` keeps its rules and a concurrent
 * change to other keys is not lost): removed keys become `null`, changed objects are diffed
 * recursively, anything else that differs is set whole. An unchanged object gives `{}`. A `null`
 * inside `to` is a removal, as in any merge patch.
 */
export function mergePatchBetween(from: MetadataObject, to: MetadataObject): MetadataObject {
  const entries: [string, unknown][] = [];
  for (const key of Object.keys(from)) if (!Object.hasOwn(to, key)) entries.push([key, null]);
  for (const [key, value] of Object.entries(to)) {
    const before = Object.hasOwn(from, key) ? from[key] : undefined;
    if (isObject(value) && isObject(before)) {
      const inner = mergePatchBetween(before, value);
      if (Object.keys(inner).length > 0) entries.push([key, inner]);
    } else if (before === undefined || JSON.stringify(value) !== JSON.stringify(before)) {
      entries.push([key, value]);
    }
  }
  // fromEntries defines own properties, so a "__proto__" key stays a key.
  return Object.fromEntries(entries);
}
