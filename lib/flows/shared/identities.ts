import type { IdentityRow } from "@/lib/db/schema";
import { findSamlProviderForDomain } from "@/lib/saml";
import type { EnabledProvider } from "@/lib/thirdparty";

/** Hanko's flow `Identity`: the provider's id of the account, the provider's name, and Sesame's id. */
export interface FlowIdentity {
  id: string;
  provider: string;
  identity_id: string;
}

/** What a SAML identity is shown as when its identity provider is not found by the address's domain. */
const SAML_FALLBACK_NAME = "SAML";

/** The name of the SAML identity provider a SAML identity came from (looked up by its address's domain). */
async function samlProviderName(tenantId: string, row: IdentityRow): Promise<string> {
  const domain = row.email?.slice(row.email.lastIndexOf("@") + 1);
  const provider = domain ? await findSamlProviderForDomain(tenantId, domain) : undefined;
  return provider?.id === row.providerId ? provider.name : SAML_FALLBACK_NAME;
}

/**
 * The identities a user can sign in with, as the flows show them: OAuth identities of enabled providers
 * (Hanko leaves those of disabled providers out) and SAML identities, oldest first.
 */
export async function flowIdentities(
  tenantId: string,
  rows: readonly IdentityRow[],
  providers: readonly EnabledProvider[],
): Promise<FlowIdentity[]> {
  const shown: FlowIdentity[] = [];
  for (const row of rows) {
    const name =
      row.kind === "saml"
        ? await samlProviderName(tenantId, row)
        : providers.find((provider) => provider.slug === row.providerId)?.displayName;
    if (name !== undefined) shown.push({ id: row.subject, provider: name, identity_id: row.id });
  }
  return shown;
}
