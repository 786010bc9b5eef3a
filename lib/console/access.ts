import { canSeeTenant, type Operator } from "@/lib/operators";

/** What a page or action needs: `read` (any role), `write` (owner, admin) or `owner`. */
export type ConsoleAccess = "read" | "write" | "owner";

/**
 * The console's whole access rule, for every page loader and server action (lib/console/guard.ts):
 * viewers read, admins also write, owners also create tenants and manage operators; admins and viewers
 * only in the tenants granted to them. `not_found` for a tenant out of reach (its existence is not told).
 */
export function decideAccess(
  operator: Pick<Operator, "role" | "tenantIds">,
  access: ConsoleAccess,
  tenantId?: string,
): "ok" | "forbidden" | "not_found" {
  if (tenantId !== undefined && !canSeeTenant(operator, tenantId)) return "not_found";
  if (access === "read") return "ok";
  if (access === "owner") return operator.role === "owner" ? "ok" : "forbidden";
  return operator.role === "owner" || operator.role === "admin" ? "ok" : "forbidden";
}
