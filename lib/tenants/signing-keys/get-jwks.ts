import type { JSONWebKeySet } from "jose";
import { selectSigningKeys } from "./store";

/** The tenant's public keys: the active one and every earlier one, newest first. */
export async function getJwks(tenantId: string): Promise<JSONWebKeySet> {
  const rows = await selectSigningKeys(tenantId);
  return { keys: rows.reverse().map((row) => row.publicJwk) };
}
