import { jwtVerify, type JWTPayload } from "jose";
import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { getConfig } from "@/lib/config";
import { transaction } from "@/lib/db";
import type { SessionRow } from "@/lib/db/schema";
import { findPrimaryEmail } from "@/lib/emails";
import { AppError } from "@/lib/errors";
import { countAuditEvent } from "@/lib/metrics";
import { requireSecondFactor } from "@/lib/mfa";
import { signToken, verificationKey, type Tenant } from "@/lib/tenants";
import { refuseLockedUser, type User } from "@/lib/users";
import { emitWebhookEvent, emitWebhookEvents, mayDeliver, sessionEventData } from "@/lib/webhooks";
import {
  deleteSession,
  deleteUserSessions,
  insertSession,
  insertSignInSession,
  touchSession,
  trimSessions,
  type SignInSession,
} from "./store";

/** How the user authenticated (JWT `amr`, Hanko's values). */
export type AuthMethod = "pwd" | "passkey" | "otp" | "totp" | "security_key" | `ext${string}`;

export interface SessionClaims extends JWTPayload {
  sub: string;
  session_id: string;
  iat: number;
  exp: number;
  aud: string[];
  iss: string;
  email?: { address: string; is_primary: boolean; is_verified: boolean };
  username?: string;
  amr: string[];
  /** RFC 8693 actor: who started this session for the user (impersonation), e.g. `api_key:<id>`. */
  act?: { sub: string };
}

export interface IssuedSession {
  token: string;
  session: SessionRow;
  claims: SessionClaims;
}

export const issuerOf = (tenant: Tenant): string => `${getConfig().baseUrl}/t/${tenant.id}`;

/**
 * Starts a session: a row (so it can be ended at once) and a JWT naming it, signed with the tenant's
 * key. The user keeps at most the tenant's session limit; the oldest sessions go. Never a session whose
 * `amr` lacks a second factor the user set up and the tenant enforces (`SecondFactorRequired`, 403), and
 * never one for a locked user (`UserLocked`, 403).
 */
export async function issueSession(
  tenant: Tenant,
  user: User,
  amr: AuthMethod[],
  context: AuditContext,
): Promise<IssuedSession> {
  await requireSecondFactor(tenant, user.id, amr);
  const client = { ip: context.ip ?? null, userAgent: context.userAgent ?? null };
  return startSession(tenant, user, amr, client, { ...context, actor: user.id });
}

/** What a caller of `startSession` may add to a login's session. */
export interface StartSessionOptions {
  /** More `details` of the `session.created` audit record. */
  details?: Record<string, unknown>;
  /** The webhook event of the new session. */
  event?: "session.create.flow" | "session.create.admin";
  /**
   * Impersonation: the audit actor who starts the session for the user (`api_key:<id>`). Kept on the row
   * (`impersonated_by`) and in the JWT as the RFC 8693 `act` claim `{sub}`; requests made with the
   * session are audited with `details.impersonated_by`.
   */
  impersonatedBy?: string;
}

/** Where a session's client is, as its row keeps it. */
export interface SessionClient {
  ip: string | null;
  userAgent: string | null;
}

/** An impersonation session: no sign-in noted, the user refused when locked; the rest as a sign-in's. */
async function startImpersonation(
  tenant: Tenant,
  user: User,
  amr: AuthMethod[],
  client: SessionClient,
  impersonatedBy: string,
): Promise<SignInSession> {
  await refuseLockedUser(tenant.id, user.id);
  const session = await insertSession({
    tenantId: tenant.id,
    userId: user.id,
    amr,
    ip: client.ip,
    userAgent: client.userAgent,
    impersonatedBy,
    lifetimeSeconds: tenant.sessionLifetimeSeconds,
  });
  const trimmed = await trimSessions(tenant.id, user.id, tenant.platform.session.limit);
  const email = await findPrimaryEmail(tenant.id, user.id);
  return {
    session,
    trimmed,
    primaryEmail: email ? { address: email.address, verified: email.verified } : null,
  };
}

/**
 * Inserts the row (the session limit trims the oldest), signs the JWT naming it and records
 * `session.created` with `audit` (its actor, plus `options.details`); the webhook `options.event`
 * (default `session.create.flow`, and `session.delete.passive.limit` per evicted session) commits with
 * the row. No second-factor check: the callers decide.
 */
export async function startSession(
  tenant: Tenant,
  user: User,
  amr: AuthMethod[],
  client: SessionClient,
  audit: AuditContext,
  options: StartSessionOptions = {},
): Promise<IssuedSession> {
  const { details = {}, event = "session.create.flow", impersonatedBy = null } = options;
  const lifetime = tenant.sessionLifetimeSeconds;
  const trimmedClient = { ip: client.ip, userAgent: client.userAgent?.slice(0, 512) ?? null };
  const created = { ...audit, type: "session.created", details: { amr, ...details } };
  const events = [event, "session.delete.passive.limit"] as const;
  const outbox = await mayDeliver(tenant.id, events);
  const begin = async () => {
    // A locked user starts no session (USER_LOCKED); the user's own sign-in is noted as their last.
    // Either holds the user's row until commit, so a lock being set waits and then ends this session.
    const started = impersonatedBy
      ? await startImpersonation(tenant, user, amr, trimmedClient, impersonatedBy)
      : await insertSignInSession(
          { tenantId: tenant.id, userId: user.id, amr, ...trimmedClient, lifetimeSeconds: lifetime },
          tenant.platform.session.limit,
          created,
        );
    if (!started) {
      await refuseLockedUser(tenant.id, user.id);
      throw new Error("session: the user does not exist");
    }
    if (outbox) {
      await emitWebhookEvents(tenant.id, [
        { event, data: sessionEventData(started.session) },
        ...started.trimmed.map((row) => ({ event: events[1], data: sessionEventData(row) })),
      ]);
    }
    return {
      session: started.session,
      trimmed: started.trimmed.map((row) => row.id),
      email: started.primaryEmail,
    };
  };
  // The row, the sessions the limit evicts and their webhook events commit together (the outbox). A
  // sign-in is one statement: without an endpoint to tell (known on the embedded database), no transaction.
  const { session, trimmed, email } = outbox || impersonatedBy ? await transaction(begin) : await begin();
  const extra: Record<string, unknown> = { session_id: session.id, amr };
  if (email) extra.email = { address: email.address, is_primary: true, is_verified: email.verified };
  if (user.username) extra.username = user.username;
  if (impersonatedBy) extra.act = { sub: impersonatedBy };
  const iat = Math.floor(Date.now() / 1000);
  const claims = {
    ...extra,
    sub: user.id,
    aud: [tenant.rpId],
    iss: issuerOf(tenant),
    iat,
    exp: iat + lifetime,
  } as SessionClaims;
  const token = await signToken(tenant, extra, {
    subject: claims.sub,
    audience: claims.aud,
    issuer: claims.iss,
    issuedAt: iat,
    expiresIn: lifetime,
  });
  if (impersonatedBy) {
    await recordAuditEvent(tenant.id, {
      ...created,
      details: { ...created.details, sessionId: session.id, endedByLimit: trimmed },
    });
  } else countAuditEvent(created.type); // written with the session (sesame_ceremonies_total, lib/metrics)
  return { token, session, claims };
}

/**
 * The token's claims when its signature, audience, issuer and expiry hold (the row is not checked). The
 * key is the tenant's JWKS key its `kid` names (every token Sesame signs names one); a known key costs
 * no statement.
 */
async function verifySignature(tenant: Tenant, token: string): Promise<SessionClaims | undefined> {
  const keyOf = async (header: { kid?: string | undefined }) => {
    const key = await verificationKey(tenant.id, header.kid);
    if (!key) throw new Error("no such signing key");
    return key;
  };
  try {
    const { payload } = await jwtVerify(token, keyOf, {
      audience: tenant.rpId,
      issuer: issuerOf(tenant),
    });
    if (typeof payload.session_id !== "string" || typeof payload.sub !== "string") return undefined;
    return payload as SessionClaims;
  } catch {
    return undefined;
  }
}

export interface ValidSession {
  claims: SessionClaims;
  session: SessionRow;
  user: User;
}

/**
 * A token that is valid now: signature, claims, and a live session row (not logged out, revoked,
 * expired or idle). Marks the session used.
 */
export async function checkSessionToken(tenant: Tenant, token: string): Promise<ValidSession | undefined> {
  const claims = await verifySignature(tenant, token);
  if (!claims) return undefined;
  // The session with its user, in one statement.
  const touched = await touchSession(
    tenant.id,
    claims.session_id,
    tenant.platform.session.idleTimeoutSeconds,
  );
  if (!touched || touched.session.userId !== claims.sub) return undefined;
  const { session, owner: user } = touched;
  // A locked user's sessions end with the lock; one that slipped past it is refused all the same.
  return user && !user.lockedAt ? { claims, session, user } : undefined;
}

/** Where the session token came from: `Authorization: Bearer` wins over the cookie. */
export function presentedSessionToken(
  req: Request,
  tenant: Tenant,
): { token: string; via: "bearer" | "cookie" } | undefined {
  const header = req.headers.get("authorization")?.trim();
  if (header && /^bearer\s+/i.test(header))
    return { token: header.replace(/^bearer\s+/i, ""), via: "bearer" };
  const cookie = readCookie(req.headers.get("cookie"), tenant.platform.session.cookie.name);
  return cookie ? { token: cookie, via: "cookie" } : undefined;
}

function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

export interface AuthenticatedSession extends ValidSession {
  via: "bearer" | "cookie";
}

/** The request's session, or 401. */
export async function authenticateSession(req: Request, tenant: Tenant): Promise<AuthenticatedSession> {
  const presented = presentedSessionToken(req, tenant);
  const valid = presented ? await checkSessionToken(tenant, presented.token) : undefined;
  if (!presented || !valid) throw new AppError("SESSION_INVALID");
  return { ...valid, via: presented.via };
}

/** Ends one session (logout); its JWT stops working at once. */
export async function endSession(
  tenant: Tenant,
  session: SessionRow,
  context: AuditContext,
  reason: "logout" | "revoked" = "logout",
): Promise<void> {
  await transaction(async () => {
    await deleteSession(tenant.id, session.id);
    await recordAuditEvent(tenant.id, {
      ...context,
      actor: session.userId,
      type: reason === "logout" ? "user.logged_out" : "session.revoked",
      details: { sessionId: session.id },
    });
    const event = reason === "logout" ? "session.delete.explicit.logout" : "session.delete.explicit.revoke";
    await emitWebhookEvent(tenant.id, event, sessionEventData(session));
  });
}

/**
 * Ends every session of the user but `keep` (the caller's own, when there is one): after a password
 * change or reset, whoever held the old password is signed out. Audited as `session.revoked` with the
 * reason.
 */
export async function endOtherSessions(
  tenant: Tenant,
  userId: string,
  keep: string | undefined,
  context: AuditContext,
  reason: string,
): Promise<number> {
  const ended = await deleteUserSessions(tenant.id, userId, keep);
  if (ended.length > 0) {
    await recordAuditEvent(tenant.id, {
      ...context,
      actor: context.actor ?? userId,
      type: "session.revoked",
      details: { sessionIds: ended, reason },
    });
  }
  return ended.length;
}
