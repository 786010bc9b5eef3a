import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { auditFailures, type AuditContext } from "@/lib/audit";
import { findExternalUserCredentials } from "@/lib/credentials";
import { AppError } from "@/lib/errors";
import { consumeRateLimit } from "@/lib/rate-limit";
import type { Tenant } from "@/lib/tenants";
import { findUserByExternalId } from "@/lib/users";
import { finalizeAssertion, issueAssertionOptions } from "./assertion";
import { auditPrefix } from "./policy";
import { issueCeremonyToken } from "./token";

type LoginKind = "login" | "mfa-login";

export const noSuitableCredentials = () =>
  new AppError("NO_USABLE_CREDENTIAL", "user has no suitable credentials for this operation");

/**
 * Starts a login. Without a user it is discoverable (any passkey of the tenant, no allowCredentials);
 * with one, `allowCredentials` lists that user's passkeys, or MFA keys for an MFA login.
 */
export async function initializeLogin(
  tenant: Tenant,
  kind: LoginKind,
  input: { userId?: string | undefined },
  context: AuditContext,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const type = `${auditPrefix(kind)}.initialize`;
  // Without a user (and so without an API key) anyone may ask: bounded per IP before anything is stored.
  if (kind === "login" && input.userId === undefined) {
    await consumeRateLimit(tenant, "webauthn_login", { ip: context.ip ?? null, audit: context });
  }
  return auditFailures(tenant.id, type, context, async () => {
    let credentials = null;
    if (input.userId !== undefined) {
      // One statement when the user has credentials; the user is looked up only to name the error.
      credentials = await findExternalUserCredentials(tenant.id, input.userId, {
        mfa: kind === "mfa-login",
      });
      if (credentials.length === 0) {
        if (!(await findUserByExternalId(tenant.id, input.userId))) {
          throw new AppError("USER_NOT_FOUND", "user not found");
        }
        throw noSuitableCredentials();
      }
    }
    return issueAssertionOptions(tenant, kind, {
      userId: credentials?.[0]?.userId ?? null,
      credentials,
      audit: {
        ...context,
        type: `${type}.succeeded`,
        actor: input.userId ?? context.actor,
        details: { discoverable: input.userId === undefined },
      },
    });
  });
}

/** Finishes a login: verifies the assertion and returns a token naming the user and the credential. */
export async function finalizeLogin(
  tenant: Tenant,
  kind: LoginKind,
  response: AuthenticationResponseJSON,
  context: AuditContext,
): Promise<{ token: string }> {
  return auditFailures(tenant.id, `${auditPrefix(kind)}.finalize`, context, () =>
    finalizeAssertion(
      tenant,
      kind,
      response,
      context,
      async ({ credential, ownerExternalId }) => ({
        result: {
          token: await issueCeremonyToken(tenant, { userId: ownerExternalId, credentialId: credential.id }),
        },
      }),
      // Signing the token writes nothing: the use and its record are one statement.
      { completeWrites: false },
    ),
  );
}
