import { and, eq, getTableColumns, isNull, lt, sql } from "drizzle-orm";
import { auditedStatement, type AuditEvent } from "@/lib/audit";
import { executor, type Executor } from "@/lib/db";
import { fixedStatement } from "@/lib/db/statement";
import { webauthnChallenges, type WebauthnChallengeRow } from "@/lib/db/schema";
import type { StoredCeremonyKind } from "./policy";

export type IssuedChallenge = Omit<
  typeof webauthnChallenges.$inferInsert,
  "id" | "createdAt" | "expiresAt" | "kind"
> & {
  kind: StoredCeremonyKind;
  ttlSeconds: number;
};

/** One in this many issued challenges also sweeps expired ones, so abandoned ceremonies do not pile up. */
const SWEEP_EVERY = 64;

const p = sql.placeholder;

const challengeInsert = (db: Executor) =>
  db
    .insert(webauthnChallenges)
    .values({
      tenantId: p("tenantId"),
      kind: p("kind"),
      challenge: p("challenge"),
      userId: p("userId"),
      policy: p("policy"),
      userVerification: p("userVerification"),
      allowCredentials: sql`${p("allowCredentials")}::text[]`,
      transactionId: p("transactionId"),
      expiresAt: sql`now() + make_interval(secs => ${p("ttlSeconds")}::double precision)`,
    })
    .returning({ id: webauthnChallenges.id });
const challengeInsertAudited = auditedStatement(challengeInsert);
const challengeInsertSilent = fixedStatement(challengeInsert);

/**
 * Stores a ceremony's challenge; with `audit`, the event is recorded by the same statement (one round
 * trip, both or neither).
 */
export async function storeChallenge(issued: IssuedChallenge, audit?: AuditEvent): Promise<void> {
  const values = {
    tenantId: issued.tenantId,
    kind: issued.kind,
    challenge: issued.challenge,
    userId: issued.userId ?? null,
    policy: issued.policy,
    userVerification: issued.userVerification,
    allowCredentials: issued.allowCredentials ?? null,
    transactionId: issued.transactionId ?? null,
    ttlSeconds: issued.ttlSeconds,
  };
  if (audit) await challengeInsertAudited(issued.tenantId, audit, values);
  else await challengeInsertSilent(await executor(), values);
  if (Math.random() * SWEEP_EVERY < 1) await sweepExpiredChallenges();
}

const challengeRenewal = fixedStatement((db) =>
  db
    .update(webauthnChallenges)
    .set({ expiresAt: sql`now() + make_interval(secs => ${p("ttlSeconds")}::double precision)` })
    .where(
      and(
        eq(webauthnChallenges.tenantId, p("tenantId")),
        eq(webauthnChallenges.challenge, p("challenge")),
        eq(webauthnChallenges.kind, p("kind")),
        isNull(webauthnChallenges.userId),
        sql`${webauthnChallenges.expiresAt} > now()`,
      ),
    )
    .returning({ id: webauthnChallenges.id }),
);

/**
 * Gives a stored discoverable challenge (no user) of `kind` a new lifetime, if it is still there and
 * unexpired: the flow's login hands out again the challenge its conditional UI was given, instead of
 * storing another. False when it was used or expired meanwhile.
 */
export async function renewDiscoverableChallenge(
  tenantId: string,
  kind: StoredCeremonyKind,
  challenge: string,
  ttlSeconds: number,
): Promise<boolean> {
  const renewed = await challengeRenewal(await executor(), { tenantId, kind, challenge, ttlSeconds });
  return renewed.length === 1;
}

const challengeConsumption = fixedStatement((db) =>
  db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.tenantId, p("tenantId")),
        eq(webauthnChallenges.challenge, p("challenge")),
        eq(webauthnChallenges.kind, p("kind")),
      ),
    )
    .returning({
      ...getTableColumns(webauthnChallenges),
      // The database's clock decides, so instances with skewed clocks agree.
      expired: sql<boolean>`${webauthnChallenges.expiresAt} <= now()`,
    }),
);

/**
 * Takes the challenge out of the database in one statement: of any number of concurrent finalizes
 * exactly one gets the row. Bound to the tenant and the ceremony kind, so a challenge of another tenant
 * or kind is simply not found (and stays usable for its own ceremony).
 */
export async function consumeChallenge(
  tenantId: string,
  kind: StoredCeremonyKind,
  challenge: string,
): Promise<(WebauthnChallengeRow & { expired: boolean }) | undefined> {
  const [row] = await challengeConsumption(await executor(), { tenantId, kind, challenge });
  return row;
}

async function sweepExpiredChallenges(): Promise<number> {
  const db = await executor();
  const rows = await db
    .delete(webauthnChallenges)
    .where(lt(webauthnChallenges.expiresAt, sql`now()`))
    .returning({ id: webauthnChallenges.id });
  return rows.length;
}
