import type { IdentityRow } from "@/lib/db/schema";
import type { IdentityValues } from "./identity";
import { insertIdentity, updateIdentity } from "./store";

/*
 * The identity rows a sign-in or a connection writes (lib/accounts decides which, under the user's lock,
 * and records the audit event and the webhook).
 */

/** Attaches a provider account to a user; undefined when another user got the same provider account first. */
export async function attachIdentity(
  tenantId: string,
  values: IdentityValues,
): Promise<IdentityRow | undefined> {
  return insertIdentity(tenantId, values);
}

/** What the provider said at this sign-in; tokens are replaced only when given (kept ones stay otherwise). */
export async function refreshIdentity(
  tenantId: string,
  id: string,
  values: Pick<IdentityValues, "email" | "emailVerified" | "claims" | "tokensSealed">,
): Promise<IdentityRow | undefined> {
  return updateIdentity(tenantId, id, values);
}
