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
 * Mints a one-time token that `POST /token` exchanges for a session of `userId` with `amr` (for example
 * `["ext:google"]` after a third-party login). `codeChallenge`: the SHA-256 (hex) of the `code_verifier` the
 * starting browser holds, which the exchange must then present. Only its SHA-256 is stored; the token (256 random bits,
 * base64url) is returned once. Single use, `ttlSeconds` (default 60, at most 600) to live.
 */
export async function mintOneTimeToken(
  tenant: Tenant,
  userId: string,
  options: { amr: AuthMethod[]; ttlSeconds?: number; codeChallenge?: string | null },
): Promise<string> {
  const ttlSeconds = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_TTL_SECONDS) {
    throw new RangeError(`ttlSeconds must be an integer from 1 to ${MAX_TTL_SECONDS}`);
  }
  const value = randomToken(32);
  await insertOneTimeToken({
    tenantId: tenant.id,
    userId,
    tokenHash: sha256Hex(value),
    amr: options.amr,
    codeChallenge: options.codeChallenge ?? null,
    ttlSeconds,
  });
  if (Math.random() * SWEEP_EVERY < 1) await sweepExpiredOneTimeTokens();
  return value;
}

/**
 * `POST /token`: exchanges a one-time token for a session (Hanko's v2 answers: 404 `token not found`
 * for an unknown, used or other tenant's token, 422 `token has expired`). Taking the token and starting
 * the session are one transaction: of concurrent exchanges one wins, and a failure burns nothing. A token
 * minted with a code challenge needs `codeVerifier` (the flow's `exchange_token` input; `POST /token` has none).
 */
export async function exchangeOneTimeToken(
  tenant: Tenant,
  value: string,
  context: AuditContext,
  codeVerifier?: string,
): Promise<{ user_id: string; session: IssuedSession }> {
  const type = "token.exchange";
  return auditFailures(tenant.id, type, context, () =>
    transaction(async () => {
      const row = await consumeOneTimeToken(tenant.id, sha256Hex(value));
      if (!row) throw new AppError("TOKEN_NOT_FOUND", "token not found");
      if (row.expired) throw new AppError("TOKEN_EXPIRED", "token has expired");
      // A token of a sign-in started with a code_verifier is only exchanged by the browser holding it:
      // a token taken from someone else's sign-in and injected into a victim's page is refused (login CSRF).
      if (
        row.codeChallenge &&
        !(codeVerifier && constantTimeEqual(sha256Hex(codeVerifier), row.codeChallenge))
      ) {
        throw new AppError("TOKEN_NOT_FOUND", "token not found", {
          details: ["the token belongs to a sign-in started in another browser"],
        });
      }
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
 * token must be the user's: another user's is burnt and not found, as an unknown one.
 */
export async function redeemOneTimeToken(
  tenant: Tenant,
  value: string,
  userId: string,
  context: AuditContext,
): Promise<void> {
  const type = "token.redeem";
  await auditFailures(tenant.id, type, context, async () => {
    const row = await consumeOneTimeToken(tenant.id, sha256Hex(value));
    if (!row || row.userId !== userId) throw new AppError("TOKEN_NOT_FOUND", "token not found");
    if (row.expired) throw new AppError("TOKEN_EXPIRED", "token has expired");
    await recordAuditEvent(tenant.id, { ...context, type: `${type}.succeeded`, details: { amr: row.amr } });
  });
}
