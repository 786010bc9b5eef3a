import { and, eq, getTableColumns, isNull, lt, sql } from "drizzle-orm";
import { writeWithAuditEvent, type AuditEvent } from "@/lib/audit";
import { executor } from "@/lib/db";
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

/**
 * Stores a ceremony's challenge; with `audit`, the event is recorded by the same statement (one round
 * trip, both or neither).
 */
export async function storeChallenge(
  { ttlSeconds, kind, ...values }: IssuedChallenge,
  audit?: AuditEvent,
): Promise<void> {
  const db = await executor();
  const insert = db
    .insert(webauthnChallenges)
    .values({ ...values, kind, expiresAt: sql`now() + make_interval(secs => ${ttlSeconds})` })
    .returning({ id: webauthnChallenges.id });
  if (audit) await writeWithAuditEvent(values.tenantId, audit, insert);
  else await insert;
  if (Math.random() * SWEEP_EVERY < 1) await sweepExpiredChallenges();
}

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
  const db = await executor();
  const renewed = await db
    .update(webauthnChallenges)
    .set({ expiresAt: sql`now() + make_interval(secs => ${ttlSeconds})` })
    .where(
      and(
        eq(webauthnChallenges.tenantId, tenantId),
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.kind, kind),
        isNull(webauthnChallenges.userId),
        sql`${webauthnChallenges.expiresAt} > now()`,
      ),
    )
    .returning({ id: webauthnChallenges.id });
  return renewed.length === 1;
}

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
  const db = await executor();
  const [row] = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.tenantId, tenantId),
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.kind, kind),
      ),
    )
    .returning({
      ...getTableColumns(webauthnChallenges),
      // The database's clock decides, so instances with skewed clocks agree.
      expired: sql<boolean>`${webauthnChallenges.expiresAt} <= now()`,
    });
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
