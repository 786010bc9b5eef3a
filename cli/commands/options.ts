import fs from "node:fs";
import { findTenant } from "@/lib/tenants";
import { UsageError } from "../output";

/** `--tenant`: required, and a tenant that exists. */
export async function existingTenant(values: Record<string, unknown>): Promise<string> {
  if (typeof values.tenant !== "string") throw new UsageError("--tenant <tenant-id> is required");
  if (!/^[0-9a-f-]{36}$/i.test(values.tenant) || !(await findTenant(values.tenant))) {
    throw new UsageError(`no tenant ${values.tenant}`);
  }
  return values.tenant;
}

/** A `true|false` option; undefined when not given. */
export function booleanOption(values: Record<string, unknown>, name: string): boolean | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (value === "true" || value === "false") return value === "true";
  throw new UsageError(`--${name} must be true or false`);
}

/** A file's text, trimmed (a secret, a key); undefined when no path is given. */
export function fileOption(path: unknown, what: string): string | undefined {
  if (typeof path !== "string") return undefined;
  try {
    return fs.readFileSync(path, "utf8").trim();
  } catch {
    throw new UsageError(`cannot read the ${what} file ${path}`);
  }
}
