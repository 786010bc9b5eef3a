/**
 * A JSON value a statement returned (`row_to_json`, `json_agg`, a jsonb column read raw): parsed objects
 * on one driver, text on another. For the readers of other owners' JSON subqueries (`fragments.ts`).
 */
export function jsonValue<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}
