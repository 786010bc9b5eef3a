import { BUILT_IN_KINDS } from "./kinds";
import { selectProvidersCached } from "./store";

/** A provider as the flows and `.well-known/config` show it. */
export interface EnabledProvider {
  /** The name in URLs and the flow's `provider` input (`google`, `github`, `custom-acme`). */
  slug: string;
  displayName: string;
  kind: string;
}

/** The tenant's enabled providers, in a stable order (built-ins first, then custom by name). */
export async function listEnabledProviders(tenantId: string): Promise<EnabledProvider[]> {
  // Built-ins in their fixed order; custom providers (`oidc`, `oauth2`) after them.
  const rank = (kind: string) =>
    kind === "oidc" || kind === "oauth2" ? 100 : (BUILT_IN_KINDS as readonly string[]).indexOf(kind);
  return (await selectProvidersCached(tenantId))
    .filter((row) => row.enabled)
    .sort(
      (a, b) =>
        rank(a.kind) - rank(b.kind) ||
        a.displayName.localeCompare(b.displayName) ||
        a.slug.localeCompare(b.slug),
    )
    .map((row) => ({ slug: row.slug, displayName: row.displayName, kind: row.kind }));
}
