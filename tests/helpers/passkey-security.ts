import { and, asc, count, eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { listAuditEvents } from "@/lib/audit";
import { executor } from "@/lib/db";
import { users, webauthnChallenges, webauthnCredentials, webauthnTransactions } from "@/lib/db/schema";
import { passkeyRequest } from "./passkey-api";
export {
  attest,
  initRegistration,
  newUserId,
  postRegistration,
  setupTenant,
  type TestTenant,
} from "./passkey-ceremonies";

export interface PasskeyErrorBody {
  title: string[];
  details: string[];
  status: number;
}

/**
 * Asserts a Passkey API error: the status, the `{title: string[], details: string[], status}` shape
 * with `status` equal to the HTTP status, no token, and optionally what the title and a detail say.
 */
export async function expectPasskeyError(
  res: Response,
  status: number,
  expected: { title?: string | RegExp; detail?: string | RegExp } = {},
): Promise<PasskeyErrorBody> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const body = JSON.parse(text) as PasskeyErrorBody;
  expect(Object.keys(body).sort()).toEqual(["details", "status", "title"]);
  expect(body.status).toBe(status);
  expect(Array.isArray(body.title) && Array.isArray(body.details)).toBe(true);
  expect(body.title.length).toBeGreaterThan(0);
  for (const line of [...body.title, ...body.details]) expect(typeof line).toBe("string");
  if (expected.title !== undefined) {
    expect(body.title[0]).toMatch(expected.title);
  }
  if (expected.detail !== undefined) {
    expect(
      body.details.some((d) =>
        typeof expected.detail === "string" ? d.includes(expected.detail) : expected.detail!.test(d),
      ),
      JSON.stringify(body.details),
    ).toBe(true);
  }
  return body;
}

/** The ids of a user's credentials, through `GET /credentials?user_id=`. */
export async function listedCredentialIds(
  { tenantId, apiKey }: { tenantId: string; apiKey: string },
  userId: string,
): Promise<string[]> {
  const res = await passkeyRequest(tenantId, "GET", `/credentials?user_id=${encodeURIComponent(userId)}`, {
    apiKey,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }[]).map((c) => c.id);
}

/** A stored credential row (sign count, flags, last use), read straight from the database. */
export async function storedCredential(tenantId: string, credentialId: string) {
  const db = await executor();
  const [row] = await db
    .select()
    .from(webauthnCredentials)
    .where(and(eq(webauthnCredentials.tenantId, tenantId), eq(webauthnCredentials.id, credentialId)));
  return row;
}

/** What a failed ceremony must leave alone: the tenant's users, credentials and transactions. */
export async function tenantState(tenantId: string) {
  const db = await executor();
  return {
    users: await db.select().from(users).where(eq(users.tenantId, tenantId)).orderBy(asc(users.id)),
    credentials: await db
      .select()
      .from(webauthnCredentials)
      .where(eq(webauthnCredentials.tenantId, tenantId))
      .orderBy(asc(webauthnCredentials.id)),
    transactions: await db
      .select()
      .from(webauthnTransactions)
      .where(eq(webauthnTransactions.tenantId, tenantId))
      .orderBy(asc(webauthnTransactions.id)),
  };
}

export async function challengeCount(tenantId: string): Promise<number> {
  const db = await executor();
  const [row] = await db
    .select({ n: count() })
    .from(webauthnChallenges)
    .where(eq(webauthnChallenges.tenantId, tenantId));
  return row?.n ?? 0;
}

/** Moves every open challenge of the tenant a minute into the past, as if its TTL had passed. */
export async function expireChallenges(tenantId: string): Promise<void> {
  const db = await executor();
  await db
    .update(webauthnChallenges)
    .set({ expiresAt: sql`now() - interval '1 minute'` })
    .where(eq(webauthnChallenges.tenantId, tenantId));
}

/** The tenant's audit events of one type, newest first. */
export async function auditEvents(tenantId: string, type: string) {
  const { items } = await listAuditEvents(tenantId, { limit: 100 });
  return items.filter((event) => event.type === type);
}
