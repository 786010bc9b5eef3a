import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { constantTimeEqual, randomToken, sha256Hex } from "@/lib/crypto";
import { transaction } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { issueSession, type AuthMethod, type IssuedSession } from "@/lib/sessions";
import type { Tenant } from "@/lib/tenants";
import { findUser } from "@/lib/users";
import { consumeOneTimeToken, insertOneTimeToken, sweepExpiredOneTimeTokens } from "./store";

/** A token lives this long unless the minting code says otherwise: it only bridges one redirect. */
export const DEFAULT_TTL_SECONDS = 60;
/** The longest lifetime a token may be given. */
export const MAX_TTL_SECONDS = 600;

const SWEEP_EVERY = 64;

/**
 * The browser a token is bound to: the SHA-256 (hex) of the binding cookie of the browser that started the
 * sign-in (`browserHash`, always known: the third-party state and the SAML request hold it), and of the
 * `code_verifier` it holds when it started through the flow's `thirdparty_oauth` with one (`codeChallenge`).
 */
export interface TokenBinding {
  browserHash: string;
  codeChallenge?: string | null | undefined;
}

/**
 * What an exchange shows to prove it comes from the browser that started the sign-in: the flow's
 * `code_verifier` input, and the values of the binding cookies the request carries.
 */
export interface BrowserProof {
  codeVerifier?: string | undefined;
  cookies: readonly string[];
}

/**
 * Mints a one-time token that `POST /token` or the flows' `exchange_token` exchange for a session of
 * `userId` with `amr` (for example `["ext:google"]` after a third-party login), bound to the browser that
 * started the sign-in (`binding`). Only its SHA-256 is stored; the token (256 random bits, base64url) is
 * returned once. Single use, `ttlSeconds` (default 60, at most 600) to live.
 */
export async function mintOneTimeToken(
  tenant: Tenant,
  userId: string,
  options: { amr: AuthMethod[]; ttlSeconds?: number; binding: TokenBinding },
): Promise<string> {
  const ttlSeconds = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_TTL_SECONDS) {
    throw new RangeError(`ttlSeconds must be an integer from 1 to ${MAX_TTL_SECONDS}`);
  }
  if (!options.binding.browserHash) throw new RangeError("a one-time token needs a browser binding");
  const value = randomToken(32);
  await insertOneTimeToken({
    tenantId: tenant.id,
    userId,
    tokenHash: sha256Hex(value),
    amr: options.amr,
    browserHash: options.binding.browserHash,
    codeChallenge: options.binding.codeChallenge ?? null,
    ttlSeconds,
  });
  if (Math.random() * SWEEP_EVERY < 1) await sweepExpiredOneTimeTokens();
  return value;
}

/**
 * Whether the exchanging browser is the one that started the sign-in: it presents the `code_verifier`
 * of the token's challenge, or carries the binding cookie of its browser hash. A token with neither
 * binding is no one's (fail closed).
 */
function startedHere(
  row: { browserHash: string | null; codeChallenge: string | null },
  proof: BrowserProof,
): boolean {
  const verifier = proof.codeVerifier;
  if (row.codeChallenge && verifier && constantTimeEqual(sha256Hex(verifier), row.codeChallenge)) return true;
  const browserHash = row.browserHash;
  return (
    browserHash !== null &&
    proof.cookies.some((cookie) => cookie !== "" && constantTimeEqual(sha256Hex(cookie), browserHash))
  );
}

/** The refusal of a token exchanged by another browser than the one that started its sign-in. */
const otherBrowser = () =>
  new AppError("TOKEN_NOT_FOUND", "token not found", {
    details: ["the token belongs to a sign-in started in another browser"],
  });

/**
 * `POST /token` and the flows' `exchange_token`: exchanges a one-time token for a session (Hanko's v2
 * answers: 404 `token not found` for an unknown, used or other tenant's token, 422 `token has expired`).
 * Only the browser that started the sign-in exchanges it (`proof`): a token from someone else's sign-in,
 * injected into a victim's page as `?hanko_token=`, is refused as not found (login CSRF). Taking the token
 * and starting the session are one transaction: of concurrent exchanges one wins, and a failure, a refused
 * browser included, burns nothing.
 */
export async function exchangeOneTimeToken(
  tenant: Tenant,
  value: string,
  context: AuditContext,
  proof: BrowserProof,
): Promise<{ user_id: string; session: IssuedSession }> {
  const type = "token.exchange";
  return auditFailures(tenant.id, type, context, () =>
    transaction(async () => {
      const row = await consumeOneTimeToken(tenant.id, sha256Hex(value));
      if (!row) throw new AppError("TOKEN_NOT_FOUND", "token not found");
      if (row.expired) throw new AppError("TOKEN_EXPIRED", "token has expired");
      if (!startedHere(row, proof)) throw otherBrowser();
      const user = await findUser(tenant.id, row.userId);
      if (!user) throw new AppError("TOKEN_NOT_FOUND", "token not found");
      const audit = { ...context, actor: user.id };
      const session = await issueSession(tenant, user, row.amr as AuthMethod[], audit);
      await recordAuditEvent(tenant.id, {
        ...audit,
        type: `${type}.succeeded`,
        details: { session_id: session.session.id, amr: row.amr },
      });
      return { user_id: user.id, session };
    }),
  );
}

/**
 * Takes a one-time token back without starting a session: the profile flow's `exchange_token`, when a
 * signed-in user comes back from connecting a provider (the callback linked the identity already). The
 * token must be the user's (another user's is not found, as an unknown one) and, as every exchange, come
 * from the browser that started the connection. A refusal burns nothing.
 */
export async function redeemOneTimeToken(
  tenant: Tenant,
  value: string,
  userId: string,
  context: AuditContext,
  proof: BrowserProof,
): Promise<void> {
  const type = "token.redeem";
  await auditFailures(tenant.id, type, context, () =>
    transaction(async () => {
      const row = await consumeOneTimeToken(tenant.id, sha256Hex(value));
      if (!row || row.userId !== userId) throw new AppError("TOKEN_NOT_FOUND", "token not found");
      if (row.expired) throw new AppError("TOKEN_EXPIRED", "token has expired");
      if (!startedHere(row, proof)) throw otherBrowser();
      await recordAuditEvent(tenant.id, { ...context, type: `${type}.succeeded`, details: { amr: row.amr } });
    }),
  );
}
