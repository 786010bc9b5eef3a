import type { IdentityRow } from "@/lib/db/schema";
import { listSamlProviders } from "@/lib/saml";
import type { EnabledProvider } from "@/lib/thirdparty";

/** Hanko's flow `Identity`: the provider's id of the account, the provider's name, and Sesame's id. */
export interface FlowIdentity {
  id: string;
  provider: string;
  identity_id: string;
}

/**
 * The identities a user can sign in with, as the flows show them, oldest first: those of enabled OAuth
 * providers and enabled SAML identity providers (Hanko leaves those of disabled providers out). Only these
 * count as a way in when the profile keeps the last one.
 */
export async function flowIdentities(
  tenantId: string,
  rows: readonly Pick<IdentityRow, "id" | "kind" | "providerId" | "subject">[],
  providers: readonly EnabledProvider[],
): Promise<FlowIdentity[]> {
  // SAML identities name their IdP by id: one read of the tenant's IdPs, only when there is one to name.
  const idps = rows.some((row) => row.kind === "saml") ? await listSamlProviders(tenantId) : [];
  const shown: FlowIdentity[] = [];
  for (const row of rows) {
    const name =
      row.kind === "saml"
        ? idps.find((idp) => idp.enabled && idp.id === row.providerId)?.name
        : providers.find((provider) => provider.slug === row.providerId)?.displayName;
    if (name !== undefined) shown.push({ id: row.subject, provider: name, identity_id: row.id });
  }
  return shown;
}
