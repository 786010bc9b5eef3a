import { and, asc, eq, getTableColumns, inArray, sql, type SQL } from "drizzle-orm";
// The recorder only: the audit module's index imports modules that import this one.
import { auditedStatement, writeWithAuditEvent, type AuditEvent } from "@/lib/audit/record-audit-event";
import { executor, type Executor } from "@/lib/db";
import { fixedStatement } from "@/lib/db/statement";
import { webauthnCredentials } from "@/lib/db/schema";
import { UUID_PATTERN } from "@/lib/tenants/tenant";
import { ownerIsUnlocked, userFromJson, userIdByExternalId, userJsonOf } from "@/lib/users/fragments";
import type { User } from "@/lib/users";
import type { Credential } from "./credential";

type NewCredential = typeof webauthnCredentials.$inferInsert;

/** The tenant's credential with this id; only the user's when `userId` is given. */
function credentialWhere(tenantId: string, credentialId: string, userId?: string): SQL | undefined {
  return and(
    eq(webauthnCredentials.tenantId, tenantId),
    userId === undefined ? undefined : eq(webauthnCredentials.userId, userId),
    eq(webauthnCredentials.id, credentialId),
  );
}

async function renameWhere(where: SQL | undefined, name: string): Promise<Credential | undefined> {
  const db = await executor();
  const [row] = await db.update(webauthnCredentials).set({ name }).where(where).returning();
  return row;
}

async function deleteWhere(where: SQL | undefined): Promise<Credential | undefined> {
  const db = await executor();
  const [row] = await db.delete(webauthnCredentials).where(where).returning();
  return row;
}

/** Inserts a credential; undefined when the tenant already has one with this id (WebAuthn §7.1 step 26). */
export async function insertCredential(values: NewCredential): Promise<Credential | undefined> {
  const db = await executor();
  const [row] = await db.insert(webauthnCredentials).values(values).onConflictDoNothing().returning();
  return row;
}

/**
 * Inserts a credential and records `audit` with it, in one statement; false (and no record) when the
 * tenant already has a credential with this id (WebAuthn §7.1 step 26).
 */
export async function insertCredentialWithAudit(values: NewCredential, audit: AuditEvent): Promise<boolean> {
  const db = await executor();
  const insert = db
    .insert(webauthnCredentials)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: webauthnCredentials.id });
  return (await writeWithAuditEvent(values.tenantId, audit, insert)).length === 1;
}

export async function selectCredential(
  tenantId: string,
  credentialId: string,
): Promise<Credential | undefined> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(webauthnCredentials)
    .where(credentialWhere(tenantId, credentialId))
    .limit(1);
  return row;
}

/** The credentials of `user` (an id, or a subquery naming one), oldest first, filtered by `mfa`. */
async function selectCredentialsOf(
  tenantId: string,
  user: string | SQL,
  filter: { mfa?: boolean },
): Promise<Credential[]> {
  const db = await executor();
  return db
    .select()
    .from(webauthnCredentials)
    .where(
      and(
        eq(webauthnCredentials.tenantId, tenantId),
        eq(webauthnCredentials.userId, user),
        filter.mfa === undefined ? undefined : eq(webauthnCredentials.isMfa, filter.mfa),
      ),
    )
    .orderBy(asc(webauthnCredentials.createdAt), asc(webauthnCredentials.id));
}

/** A user's credentials, oldest first; `mfa` picks passkeys (false) or MFA keys (true), else both. */
export function selectUserCredentials(
  tenantId: string,
  userId: string,
  filter: { mfa?: boolean } = {},
): Promise<Credential[]> {
  return selectCredentialsOf(tenantId, userId, filter);
}

/**
 * `selectUserCredentials` for the user with this external id (the Passkey API `user_id`), in one
 * statement; empty when there is no such user as well as when the user has none.
 */
export function selectExternalUserCredentials(
  tenantId: string,
  externalId: string,
  filter: { mfa?: boolean } = {},
): Promise<Credential[]> {
  return selectCredentialsOf(tenantId, userIdByExternalId(tenantId, externalId), filter);
}

const p = sql.placeholder;

const credentialUse = (db: Executor) =>
  db
    .update(webauthnCredentials)
    .set({
      signCount: sql`${p("signCount")}::bigint`,
      backupState: sql`${p("backupState")}::boolean`,
      lastUsedAt: sql`now()`,
    })
    .where(
      and(
        eq(webauthnCredentials.tenantId, p("tenantId")),
        eq(webauthnCredentials.id, p("credentialId")),
        eq(webauthnCredentials.signCount, p("expectedSignCount")),
        // A locked owner completes no ceremony, even one whose lock came after the credential was read.
        ownerIsUnlocked(p("tenantId"), webauthnCredentials.userId),
      ),
    )
    .returning({ id: webauthnCredentials.id });
const credentialUseAudited = auditedStatement(credentialUse);
const credentialUseSilent = fixedStatement(credentialUse);

/**
 * Records a successful assertion. The sign count is compared and set in one statement, so of two
 * assertions racing with the same counter only one is accepted. False when the count moved meanwhile.
 */
export async function updateCredentialUse(
  tenantId: string,
  credentialId: string,
  use: { expectedSignCount: number; signCount: number; backupState: boolean },
  audit?: AuditEvent,
): Promise<boolean> {
  const values = { tenantId, credentialId, ...use };
  // With its audit record: one statement, the record written only when the count was set.
  const rows = audit
    ? await credentialUseAudited(tenantId, audit, values)
    : await credentialUseSilent(await executor(), values);
  return rows.length === 1;
}

export async function updateCredentialName(
  tenantId: string,
  credentialId: string,
  name: string,
): Promise<Credential | undefined> {
  return renameWhere(credentialWhere(tenantId, credentialId), name);
}

export async function deleteCredentialRow(
  tenantId: string,
  credentialId: string,
): Promise<Credential | undefined> {
  return deleteWhere(credentialWhere(tenantId, credentialId));
}

/** Renames a credential of this user; undefined when the user has none with this id. */
export async function updateUserCredentialName(
  tenantId: string,
  userId: string,
  credentialId: string,
  name: string,
): Promise<Credential | undefined> {
  return renameWhere(credentialWhere(tenantId, credentialId, userId), name);
}

/** Deletes a credential of this user; undefined when the user has none with this id. */
export async function deleteUserCredentialRow(
  tenantId: string,
  userId: string,
  credentialId: string,
): Promise<Credential | undefined> {
  return deleteWhere(credentialWhere(tenantId, credentialId, userId));
}

/** Deletes every WebAuthn credential of the user (passkeys and security keys); returns their ids. */
export async function deleteAllUserCredentialRows(tenantId: string, userId: string): Promise<string[]> {
  const db = await executor();
  const rows = await db
    .delete(webauthnCredentials)
    .where(and(eq(webauthnCredentials.tenantId, tenantId), eq(webauthnCredentials.userId, userId)))
    .returning({ id: webauthnCredentials.id });
  return rows.map((row) => row.id);
}

/** Which of these users have at least one passkey (an MFA-only key does not count); ids that are not UUIDs are skipped. */
export async function selectUsersWithPasskeys(tenantId: string, userIds: string[]): Promise<string[]> {
  const ids = userIds.filter((id) => UUID_PATTERN.test(id));
  if (ids.length === 0) return [];
  const db = await executor();
  const rows = await db
    .selectDistinct({ userId: webauthnCredentials.userId })
    .from(webauthnCredentials)
    .where(
      and(
        eq(webauthnCredentials.tenantId, tenantId),
        eq(webauthnCredentials.isMfa, false),
        inArray(webauthnCredentials.userId, ids),
      ),
    );
  return rows.map((row) => row.userId);
}

const credentialWithOwner = fixedStatement((db) =>
  db
    .select({
      ...getTableColumns(webauthnCredentials),
      owner: userJsonOf(p("tenantId"), webauthnCredentials.userId),
    })
    .from(webauthnCredentials)
    .where(
      and(eq(webauthnCredentials.tenantId, p("tenantId")), eq(webauthnCredentials.id, p("credentialId"))),
    )
    .limit(1),
);

/** A credential with its owner, in one statement (see findCredentialWithOwner). */
export async function selectCredentialWithOwner(
  tenantId: string,
  credentialId: string,
): Promise<{ credential: Credential; ownerExternalId: string | null; owner: User | undefined } | undefined> {
  const [row] = await credentialWithOwner(await executor(), { tenantId, credentialId });
  if (!row) return undefined;
  const { owner: json, ...credential } = row;
  const owner = userFromJson(json);
  return { credential, ownerExternalId: owner?.externalId ?? null, owner };
}
