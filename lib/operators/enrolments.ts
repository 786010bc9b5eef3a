import { randomToken, sha256Hex } from "@/lib/crypto";
import { transaction } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { consoleUrl } from "./console-tenant";
import { countOperators, findOperator, OperatorEmail, type Operator } from "./operator";
import {
  insertEnrolment,
  insertOperator,
  lockConsoleSetup,
  retireEnrolments,
  selectLiveEnrolment,
  selectLiveSetupLinkExpiry,
  updateEnrolmentUsed,
} from "./store";

/** How long a setup or enrolment link works. */
export const ENROLMENT_TTL_MINUTES = 30;

/** A new link for the operator's next passkey (null: the first owner's setup link). */
export async function issueEnrolment(operatorId: string | null): Promise<{ url: string; expiresAt: Date }> {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + ENROLMENT_TTL_MINUTES * 60_000);
  // A new link replaces the unused ones of the same operator (or the previous setup link).
  await retireEnrolments(operatorId);
  await insertEnrolment({ operatorId, tokenHash: sha256Hex(token), expiresAt });
  // The token travels in the fragment: never sent to a server, never in a log or a Referer.
  return { url: consoleUrl(`/enroll#${token}`), expiresAt };
}

/**
 * At start: when no operator exists yet, a one-time setup link for the first owner. The embedded
 * database has one process, so each start replaces the previous link. On Postgres another instance may
 * have printed a live link a moment ago: then that one stands (`url` undefined, its expiry given).
 */
export async function issueSetupLinkIfNeeded(options: {
  replace: boolean;
}): Promise<{ url: string | undefined; expiresAt: Date } | undefined> {
  return transaction(async () => {
    // Serialise racing instances on one Postgres: one setup link at a time.
    await lockConsoleSetup();
    if ((await countOperators()) > 0) return undefined;
    if (!options.replace) {
      const live = await selectLiveSetupLinkExpiry();
      if (live) return { url: undefined, expiresAt: live };
    }
    return issueEnrolment(null);
  });
}

export interface Enrolment {
  id: string;
  /** Null: the first owner's setup link (the operator is made when the passkey is registered). */
  operator: Operator | null;
}

/** The unused, unexpired enrolment for a token, without using it up; undefined otherwise. */
export async function findEnrolment(token: string): Promise<Enrolment | undefined> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
  const row = await selectLiveEnrolment(sha256Hex(token));
  if (!row) return undefined;
  if (row.operatorId === null)
    return (await countOperators()) > 0 ? undefined : { id: row.id, operator: null };
  const operator = await findOperator(row.operatorId);
  return operator ? { id: row.id, operator } : undefined;
}

/** Uses up an enrolment atomically: only one caller gets it. */
export function consumeEnrolment(enrolmentId: string): Promise<boolean> {
  return updateEnrolmentUsed(enrolmentId);
}

/** The first owner, made when the setup link's passkey is registered. */
export async function createFirstOwner(id: string, email: string): Promise<Operator> {
  await lockConsoleSetup();
  if ((await countOperators()) > 0)
    throw new AppError("CONSOLE_ALREADY_SET_UP", "the console is already set up");
  const row = await insertOperator({ id, email: OperatorEmail.parse(email), role: "owner" });
  return { ...row!, tenantIds: [] };
}
