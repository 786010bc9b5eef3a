import { and, asc, eq, getTableColumns, gt, inArray, lt, ne, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import type { AuditEvent } from "@/lib/audit";
import { auditCtesWithPlaceholders, auditPlaceholders, type AuditShape } from "@/lib/audit/fragments";
import { executor } from "@/lib/db";
import { fixedSql, fixedStatement } from "@/lib/db/statement";
import { jsonValue } from "@/lib/db/json";
import { sessions, type SessionRow } from "@/lib/db/schema";
import { primaryAddressOf, type PrimaryAddress } from "@/lib/emails/fragments";
import type { User } from "@/lib/users";
import { signInNoted, userFromJson, userJsonOf } from "@/lib/users/fragments";
import { UUID_PATTERN } from "@/lib/tenants/tenant";

export async function insertSession(
  values: Omit<typeof sessions.$inferInsert, "expiresAt"> & { lifetimeSeconds: number },
): Promise<SessionRow> {
  const { lifetimeSeconds, ...rest } = values;
  const db = await executor();
  const [row] = await db
    .insert(sessions)
    .values({ ...rest, expiresAt: sql`now() + make_interval(secs => ${lifetimeSeconds})` })
    .returning();
  return row!;
}

/** A session row as `row_to_json` gives it (snake_case keys, timestamps as text). */
interface SessionJson {
  id: string;
  tenant_id: string;
  user_id: string;
  amr: string[];
  ip: string | null;
  user_agent: string | null;
  impersonated_by: string | null;
  created_at: string;
  last_used_at: string;
  expires_at: string;
}

function sessionFromJson(row: SessionJson): SessionRow {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    userId: row.user_id,
    amr: row.amr,
    ip: row.ip,
    userAgent: row.user_agent,
    impersonatedBy: row.impersonated_by,
    createdAt: new Date(row.created_at),
    lastUsedAt: new Date(row.last_used_at),
    expiresAt: new Date(row.expires_at),
  };
}

/** What a user's own sign-in wrote: the session, the sessions its limit ended, the primary address. */
export interface SignInSession {
  session: SessionRow;
  trimmed: SessionRow[];
  primaryEmail: PrimaryAddress | null;
}

/** {@link insertSignInSession}'s statement, one text per shape of its audit record, built once. */
function signInStatement(shape: AuditShape) {
  const p = sql.placeholder;
  // The statement's snapshot does not show the new row to the deletion: it keeps `limit - 1` others.
  return fixedSql(
    () => sql`
      with signed as (${signInNoted(p("tenantId"), p("userId"))}),
      inserted as (
        insert into ${sessions} (id, tenant_id, user_id, amr, ip, user_agent, expires_at)
        select ${p("id")}::uuid, ${p("tenantId")}::uuid, signed.id, ${p("amr")}::text[], ${p("ip")}::text,
          ${p("userAgent")}::text, now() + make_interval(secs => ${p("lifetimeSeconds")}::double precision)
        from signed
        returning *),
      trimmed as (
        delete from ${sessions} where tenant_id = ${p("tenantId")}::uuid and id in (
          select s.id from ${sessions} s where s.tenant_id = ${p("tenantId")}::uuid and s.user_id = ${p("userId")}::uuid
          order by s.created_at desc, s.id desc offset ${p("keep")}::int)
        and exists (select 1 from inserted)
        returning *),
      ${auditCtesWithPlaceholders(
        shape,
        sql`exists (select 1 from inserted)`,
        sql`jsonb_build_object('endedByLimit', (select coalesce(jsonb_agg(trimmed.id order by trimmed.created_at), '[]'::jsonb) from trimmed))`,
      )}
      select row_to_json(inserted) as session,
        (select coalesce(json_agg(row_to_json(trimmed) order by trimmed.created_at), '[]'::json) from trimmed) as trimmed,
        ${primaryAddressOf(p("tenantId"))(p("userId"))} as email
      from inserted`,
  );
}
const SIGN_IN_STATEMENTS: Record<AuditShape, ReturnType<typeof fixedSql>> = {
  uncounted: signInStatement("uncounted"),
  counted: signInStatement("counted"),
  "counted-active": signInStatement("counted-active"),
};

/**
 * A user's own sign-in in one statement: notes it on the user (lib/users' `signInNoted`: nothing when
 * the user is locked or gone), inserts the session, deletes the user's sessions past the newest `limit`
 * (the new one counted), appends `audit` (its `details` get `sessionId` and the ended sessions' ids as
 * `endedByLimit`) and reads the primary address for the token. Undefined when the user was not signed in
 * (locked or gone); nothing is written then. Joins the caller's transaction.
 */
export async function insertSignInSession(
  values: {
    tenantId: string;
    userId: string;
    amr: string[];
    ip: string | null;
    userAgent: string | null;
    lifetimeSeconds: number;
  },
  limit: number,
  audit: AuditEvent,
): Promise<SignInSession | undefined> {
  const { tenantId, userId } = values;
  const id = randomUUID();
  const recorded = { ...audit, details: { ...audit.details, sessionId: id } };
  const { shape, values: auditValues } = auditPlaceholders(tenantId, recorded);
  const [row] = await SIGN_IN_STATEMENTS[shape]<{ session: unknown; trimmed: unknown; email: unknown }>(
    await executor(),
    {
      ...auditValues,
      id,
      tenantId,
      userId,
      amr: values.amr,
      ip: values.ip,
      userAgent: values.userAgent,
      lifetimeSeconds: values.lifetimeSeconds,
      keep: Math.max(limit - 1, 0),
    },
  );
  if (!row) return undefined;
  return {
    session: sessionFromJson(jsonValue<SessionJson>(row.session)),
    trimmed: jsonValue<SessionJson[]>(row.trimmed).map(sessionFromJson),
    primaryEmail: jsonValue<PrimaryAddress | null>(row.email),
  };
}

/** Keeps the newest `limit` sessions of the user and deletes the rest; returns the deleted rows. */
export async function trimSessions(tenantId: string, userId: string, limit: number): Promise<SessionRow[]> {
  const db = await executor();
  // One statement: the sessions past the newest `limit`, deleted and returned.
  const surplus = db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.userId, userId)))
    .orderBy(sql`${sessions.createdAt} desc`, sql`${sessions.id} desc`)
    .offset(limit);
  return db
    .delete(sessions)
    .where(and(eq(sessions.tenantId, tenantId), inArray(sessions.id, surplus)))
    .returning();
}

/** `touchSession`'s statement, with or without the idle timeout: each built once (lib/db/statement.ts). */
function sessionTouchStatement(idle: boolean) {
  const p = sql.placeholder;
  return fixedStatement((db) =>
    db
      .update(sessions)
      .set({ lastUsedAt: sql`now()` })
      .where(
        and(
          eq(sessions.tenantId, p("tenantId")),
          eq(sessions.id, p("sessionId")),
          gt(sessions.expiresAt, sql`now()`),
          idle
            ? gt(
                sessions.lastUsedAt,
                sql`now() - make_interval(secs => ${p("idleTimeoutSeconds")}::double precision)`,
              )
            : undefined,
        ),
      )
      .returning({ ...getTableColumns(sessions), owner: userJsonOf(p("tenantId"), sessions.userId) }),
  );
}
const sessionTouch = sessionTouchStatement(false);
const sessionTouchIdle = sessionTouchStatement(true);

/**
 * The live session (not expired, not idle for longer than `idleTimeoutSeconds` when that is on) and
 * marks it used, in one statement; an idle or expired one is deleted and not returned.
 */
export async function touchSession(
  tenantId: string,
  sessionId: string,
  idleTimeoutSeconds: number,
): Promise<{ session: SessionRow; owner: User | undefined } | undefined> {
  if (!UUID_PATTERN.test(sessionId)) return undefined;
  const db = await executor();
  const touch = idleTimeoutSeconds > 0 ? sessionTouchIdle : sessionTouch;
  const [row] = await touch(db, { tenantId, sessionId, idleTimeoutSeconds });
  if (!row) {
    await db.delete(sessions).where(and(eq(sessions.tenantId, tenantId), eq(sessions.id, sessionId)));
    return undefined;
  }
  const { owner, ...session } = row;
  return { session, owner: userFromJson(owner) };
}

export async function deleteSession(tenantId: string, sessionId: string): Promise<boolean> {
  if (!UUID_PATTERN.test(sessionId)) return false;
  const db = await executor();
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.id, sessionId)))
    .returning({ id: sessions.id });
  return rows.length === 1;
}

/** Deletes the user's sessions, but `keep` (when given); returns the ids of those ended. */
export async function deleteUserSessions(
  tenantId: string,
  userId: string,
  keep: string | undefined,
): Promise<string[]> {
  const db = await executor();
  const rows = await db
    .delete(sessions)
    .where(
      and(
        eq(sessions.tenantId, tenantId),
        eq(sessions.userId, userId),
        ...(keep ? [ne(sessions.id, keep)] : []),
      ),
    )
    .returning({ id: sessions.id });
  return rows.map((row) => row.id);
}

export async function selectUserSessions(tenantId: string, userId: string): Promise<SessionRow[]> {
  const db = await executor();
  return db
    .select()
    .from(sessions)
    .where(
      and(eq(sessions.tenantId, tenantId), eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`)),
    )
    .orderBy(asc(sessions.createdAt));
}

export async function deleteExpiredSessions(limit: number): Promise<SessionRow[]> {
  const db = await executor();
  const expired = db
    .select({ id: sessions.id })
    .from(sessions)
    .where(lt(sessions.expiresAt, sql`now()`))
    .limit(limit)
    .for("update", { skipLocked: true });
  return db.delete(sessions).where(inArray(sessions.id, expired)).returning();
}

/** Deletes one session of this user; undefined when the user has no live or expired session with this id. */
export async function deleteUserSession(
  tenantId: string,
  userId: string,
  sessionId: string,
): Promise<SessionRow | undefined> {
  if (!UUID_PATTERN.test(sessionId)) return undefined;
  const db = await executor();
  const [row] = await db
    .delete(sessions)
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.userId, userId), eq(sessions.id, sessionId)))
    .returning();
  return row;
}
