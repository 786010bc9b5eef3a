import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { IdentityRow } from "@/lib/db/schema";
import { EmailTaken, findEmailByAddress, isClaimOnly, normalizeAddress } from "@/lib/emails";
import { addEmail } from "./email-changes";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { findUser, addUser, lockUser, type User } from "@/lib/users";
import { emitWebhookEvent } from "@/lib/webhooks";
import { userEventData } from "./user-event-data";
import {
  attachIdentity,
  findIdentity,
  listIdentities,
  refreshIdentity,
  type IdentityKind,
} from "@/lib/identities";

/** What a provider asserted about the account, after the protocol module verified it. */
export interface AssertedIdentity {
  kind: IdentityKind;
  /** The provider's slug (OAuth) or the SAML identity provider's id. */
  providerId: string;
  /** The provider's stable id of the account. */
  subject: string;
  email: string | null;
  /** The provider vouches for the address (OIDC `email_verified`, GitHub's verified flag, a SAML IdP of the domain). */
  emailVerified: boolean;
  /** Profile claims to keep (never tokens). */
  claims: Record<string, unknown>;
  /** Provider tokens, already sealed; only when the provider's settings keep them. */
  tokensSealed?: string | null;
}

export interface IdentityPolicy {
  /** Link to an existing user whose address equals the provider's verified email. */
  allowLinking: boolean;
  /** Create a user on the first sign-in (default: the tenant's `account.allowSignup`). */
  allowSignup?: boolean;
}

export type IdentityOutcome = "signed_in" | "linked" | "signed_up";

export interface IdentitySignIn {
  user: User;
  identity: IdentityRow;
  outcome: IdentityOutcome;
}

function refusal(
  code: "THIRD_PARTY_EMAIL_MISSING" | "THIRD_PARTY_EMAIL_UNVERIFIED" | "THIRD_PARTY_LINKING_DISABLED",
) {
  return new AppError(code);
}

/**
 * The user a verified provider assertion signs in, in one transaction:
 * 1. a known identity (provider + subject) signs its user in; its email and claims are refreshed;
 * 2. else an existing user with the asserted address is linked, only when the provider verified the
 *    address and the policy allows linking (THIRD_PARTY_EMAIL_UNVERIFIED, THIRD_PARTY_LINKING_DISABLED);
 *    and the existing user verified it too (never onto an unproven address);
 * 3. else a new user is created with the address (verified as the provider says), when sign-ups are
 *    allowed (SIGN_UP_DISABLED) and, with verification required, only on a verified address
 *    (THIRD_PARTY_EMAIL_UNVERIFIED). Without an address: THIRD_PARTY_EMAIL_MISSING.
 * Another user's mere claim on the address (an unfinished sign-up) is not an account: a verified
 * address takes it over. Records `identity.linked` or `identity.created` (with `user.create` webhook).
 */
export async function signInWithIdentity(
  tenant: Tenant,
  asserted: AssertedIdentity,
  policy: IdentityPolicy,
  context: AuditContext,
): Promise<IdentitySignIn> {
  const key = { kind: asserted.kind, providerId: asserted.providerId, subject: asserted.subject };
  const email = asserted.email ? normalizeAddress(asserted.email, "email") : null;
  const values = {
    email,
    emailVerified: asserted.emailVerified,
    claims: asserted.claims,
    tokensSealed: asserted.tokensSealed ?? null,
  };
  return transaction(async () => {
    const known = await findIdentity(tenant.id, key);
    if (known) {
      const user = await findUser(tenant.id, known.userId);
      if (!user) throw new AppError("USER_NOT_FOUND", "user not found");
      const identity = (await refreshIdentity(tenant.id, known.id, values)) ?? known;
      return { user, identity, outcome: "signed_in" as const };
    }
    if (!email) throw refusal("THIRD_PARTY_EMAIL_MISSING");
    const existing = await findEmailByAddress(tenant.id, email);
    const owned =
      existing && !(asserted.emailVerified && isClaimOnly(tenant, existing)) ? existing : undefined;
    if (owned) {
      if (!asserted.emailVerified) throw refusal("THIRD_PARTY_EMAIL_UNVERIFIED");
      if (!policy.allowLinking) throw refusal("THIRD_PARTY_LINKING_DISABLED");
      // An address nobody proved is no proof of whose account it is: whoever created that user may have
      // typed someone else's address (pre-account hijacking). Never link onto it.
      if (!owned.verified) {
        throw new AppError("THIRD_PARTY_LINKING_DISABLED", undefined, {
          details: ["the account with this address has not verified it"],
        });
      }
      if (!(await lockUser(tenant.id, owned.userId))) throw new AppError("USER_NOT_FOUND", "user not found");
      // One account per provider and user: a second subject of the same provider claiming the address (an
      // address given to a new person, or changed by its holder where the provider allows it) is someone
      // else, not a new way in for this user.
      const held = await listIdentities(tenant.id, owned.userId);
      if (held.some((row) => row.kind === key.kind && row.providerId === key.providerId)) {
        throw new AppError("THIRD_PARTY_LINKING_DISABLED", undefined, {
          details: ["the account with this address is linked to another account of this provider"],
        });
      }
      const user = (await findUser(tenant.id, owned.userId))!;
      const identity = await attachIdentity(tenant.id, { ...key, ...values, userId: user.id });
      if (!identity) throw new AppError("IDENTITY_ALREADY_LINKED", "this account is already linked");
      await recordAuditEvent(tenant.id, {
        ...context,
        actor: user.id,
        type: "identity.linked",
        details: { identity_id: identity.id, kind: key.kind, provider: key.providerId },
      });
      await emitWebhookEvent(tenant.id, "user.update", () => userEventData(tenant.id, user.id));
      return { user, identity, outcome: "linked" as const };
    }
    if (!(policy.allowSignup ?? tenant.platform.account.allowSignup)) {
      throw new AppError("SIGN_UP_DISABLED", undefined, { details: ["sign-up is disabled for this tenant"] });
    }
    // With verification required, a user is never created on an address nobody proved: it would be the
    // new user's primary address and so block (or later be linked to) the address's real owner.
    if (!asserted.emailVerified && tenant.platform.emails.requireVerification) {
      throw refusal("THIRD_PARTY_EMAIL_UNVERIFIED");
    }
    const user = await addUser(tenant.id);
    await addEmail(tenant, user.id, {
      address: email,
      verified: asserted.emailVerified,
      context: { ...context, actor: user.id },
      takeOverClaim: asserted.emailVerified,
      signUp: true,
    }).catch((error) => {
      throw error instanceof EmailTaken ? refusal("THIRD_PARTY_EMAIL_UNVERIFIED") : error;
    });
    const identity = await attachIdentity(tenant.id, { ...key, ...values, userId: user.id });
    if (!identity) throw new AppError("IDENTITY_ALREADY_LINKED", "this account is already linked");
    await emitWebhookEvent(tenant.id, "user.create", () => userEventData(tenant.id, user.id));
    await recordAuditEvent(tenant.id, {
      ...context,
      actor: user.id,
      type: "identity.created",
      details: { identity_id: identity.id, kind: key.kind, provider: key.providerId, signup: true },
    });
    return { user, identity, outcome: "signed_up" as const };
  });
}

/**
 * Connects a provider account to a signed-in user (profile flow): the identity must not belong to another
 * user (IDENTITY_LINKED_ELSEWHERE); connecting one the user already has refreshes it. Records `identity.linked`.
 */
export async function linkIdentity(
  tenant: Tenant,
  userId: string,
  asserted: AssertedIdentity,
  context: AuditContext,
): Promise<IdentitySignIn> {
  const key = { kind: asserted.kind, providerId: asserted.providerId, subject: asserted.subject };
  const values = {
    email: asserted.email ? normalizeAddress(asserted.email, "email") : null,
    emailVerified: asserted.emailVerified,
    claims: asserted.claims,
    tokensSealed: asserted.tokensSealed ?? null,
  };
  return transaction(async () => {
    if (!(await lockUser(tenant.id, userId))) throw new AppError("USER_NOT_FOUND", "user not found");
    const user = (await findUser(tenant.id, userId))!;
    const known = await findIdentity(tenant.id, key);
    if (known && known.userId !== userId) {
      throw new AppError("IDENTITY_LINKED_ELSEWHERE", "this account is linked to another user");
    }
    if (known) {
      const identity = (await refreshIdentity(tenant.id, known.id, values)) ?? known;
      return { user, identity, outcome: "signed_in" as const };
    }
    const identity = await attachIdentity(tenant.id, { ...key, ...values, userId });
    if (!identity) throw new AppError("IDENTITY_LINKED_ELSEWHERE", "this account is linked to another user");
    await recordAuditEvent(tenant.id, {
      ...context,
      actor: userId,
      type: "identity.linked",
      details: { identity_id: identity.id, kind: key.kind, provider: key.providerId },
    });
    await emitWebhookEvent(tenant.id, "user.update", () => userEventData(tenant.id, userId));
    return { user, identity, outcome: "linked" as const };
  });
}
