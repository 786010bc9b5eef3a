import { findUserCredentials, type Credential } from "@/lib/credentials";
import type { EmailRow, IdentityRow, SessionRow } from "@/lib/db/schema";
import { findUserEmails } from "@/lib/emails";
import type { FlowContext } from "@/lib/flows/definition";
import { FlowError, flowErrors } from "@/lib/flows/errors";
import { hasOtpSecret } from "@/lib/mfa";
import { listIdentities } from "@/lib/identities";
import { flowIdentities, type FlowIdentity } from "@/lib/flows/shared/identities";
import { enabledProviders } from "@/lib/flows/shared/thirdparty";
import type { EnabledProvider } from "@/lib/thirdparty";
import { hasPassword } from "@/lib/passwords";
import { findUserSessions } from "@/lib/sessions";
import type { Tenant } from "@/lib/tenants";
import { findUser, type User } from "@/lib/users";

/** The user's data a profile step decides on and shows. */
export interface Profile {
  user: User;
  emails: EmailRow[];
  passkeys: Credential[];
  securityKeys: Credential[];
  password: boolean;
  otp: boolean;
  sessions: SessionRow[];
  /** The identities the user can sign in with (of enabled providers), as the flow shows them. */
  identities: FlowIdentity[];
  /** All the user's identity rows (those of disabled providers too). */
  identityRows: IdentityRow[];
  /** The tenant's enabled third-party providers. */
  providers: EnabledProvider[];
}

/** The caller's session; the engine authenticated it before the step. */
export function sessionOf(ctx: FlowContext) {
  if (!ctx.session) throw flowErrors.unauthorized();
  return ctx.session;
}

async function loadProfile(ctx: FlowContext): Promise<Profile> {
  const tenantId = ctx.tenant.id;
  const user = await findUser(tenantId, sessionOf(ctx).user.id);
  if (!user) throw flowErrors.unauthorized();
  const [emails, credentials, password, otp, sessions, identityRows, providers] = await Promise.all([
    findUserEmails(tenantId, user.id),
    findUserCredentials(tenantId, user.id),
    hasPassword(tenantId, user.id),
    hasOtpSecret(tenantId, user.id),
    findUserSessions(tenantId, user.id),
    listIdentities(tenantId, user.id),
    enabledProviders(ctx),
  ]);
  return {
    user,
    emails,
    passkeys: credentials.filter((credential) => !credential.isMfa),
    securityKeys: credentials.filter((credential) => credential.isMfa),
    password,
    otp,
    sessions,
    identities: await flowIdentities(tenantId, identityRows, providers),
    identityRows,
    providers,
  };
}

/**
 * The profile, loaded once per step (the step's memo), so the availability checks, the inputs (whose
 * allowed values come from it) and the action see the same data; the state a step enters loads afresh.
 */
export const profileOf = (ctx: FlowContext): Promise<Profile> => ctx.memo("profile", () => loadProfile(ctx));

/** A check on the profile, for `available`. */
export const when = (test: (profile: Profile, tenant: Tenant) => boolean) => async (ctx: FlowContext) =>
  test(await profileOf(ctx), ctx.tenant);

/**
 * Whether the user can still log in without `method` (Hanko's rule for deleting the last one): a
 * passkey, a password with an identifier to type, a code mailed to one of the addresses, or another
 * identity at an enabled third-party or SAML provider (`{identityId}`: without that identity).
 */
export function canLogInWithout(
  tenant: Tenant,
  profile: Profile,
  method: "passkey" | "password" | { identityId: string },
): boolean {
  const { passkeys, password, passcodes, username } = tenant.platform;
  const identifier = profile.emails.length > 0 || (username.enabled && Boolean(profile.user.username));
  const identities = profile.identities.filter(
    (identity) => typeof method !== "object" || identity.identity_id !== method.identityId,
  );
  return (
    (method !== "passkey" && passkeys.enabled && profile.passkeys.length > 0) ||
    (method !== "password" && password.enabled && profile.password && identifier) ||
    (passcodes.enabled && profile.emails.length > 0) ||
    identities.length > 0
  );
}

export const notFound = (what: string) => new FlowError("not_found", `${what} not found`);
