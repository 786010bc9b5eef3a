import { authenticateApiKey, type AuthenticatedKey } from "@/lib/api-keys";
import { withTimeout } from "@/lib/db";
import { AppError, DatabaseUnavailable, Unauthorized } from "@/lib/errors";
import { AUTH_SCOPE, type ApiKeyAuthKind, type AuthRequirement } from "@/lib/contracts/contract";

/** A key lookup that does not answer in this time means the database is in trouble. */
const AUTH_TIMEOUT_MS = 2000;
/** A tenant-scoped route without a tenant in its path matches no key. */
const NO_TENANT = "-";

function authorizationCredential(req: Request, schemes: string[]): string | undefined {
  const header = req.headers.get("authorization")?.trim();
  if (!header) return undefined;
  const space = header.indexOf(" ");
  if (space < 0) return undefined;
  const scheme = header.slice(0, space).toLowerCase();
  return schemes.includes(scheme) ? header.slice(space + 1).trim() : undefined;
}

/** Pulls the key out of the request the way the surface expects it. Query strings are never read. */
function presentedKey(req: Request, kind: ApiKeyAuthKind): string | undefined {
  switch (kind) {
    case "admin-key":
      return authorizationCredential(req, ["bearer"]);
    // The spec's Authenticator scheme text says `secret <key>`, its samples `Bearer <key>`: accept both.
    case "authenticator-key":
      return authorizationCredential(req, ["secret", "bearer"]);
    case "passkey-key":
      return req.headers.get("apikey")?.trim() || undefined;
  }
}

/**
 * Authenticates the request for `requirement`. `tenantId` is the tenant named in the path: admin and
 * Passkey keys must belong to it (another tenant's key is refused like a wrong key); an Authenticator
 * key names its tenant itself.
 */
export async function authenticate(
  req: Request,
  requirement: AuthRequirement,
  tenantId: string | undefined,
): Promise<AuthenticatedKey | undefined> {
  if (requirement.kind === "none" || requirement.kind === "session") return undefined;
  const key = presentedKey(req, requirement.kind);
  if (!key) throw new Unauthorized();
  try {
    return await withTimeout(
      authenticateApiKey(key, {
        scope: AUTH_SCOPE[requirement.kind],
        tenantId: requirement.kind === "authenticator-key" ? undefined : (tenantId ?? NO_TENANT),
      }),
      AUTH_TIMEOUT_MS,
      "The API key lookup",
    );
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new DatabaseUnavailable(error);
  }
}
