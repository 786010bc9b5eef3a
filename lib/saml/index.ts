// SAML 2.0 service provider. STUB by the lead: the saml helper replaces the bodies (keep the signatures).

/** The enabled SAML identity provider that serves this email domain (lower-cased), if any. */
export async function findSamlProviderForDomain(
  tenantId: string,
  domain: string,
): Promise<{ id: string; name: string } | undefined> {
  void tenantId;
  void domain;
  return undefined;
}
