import { and, asc, count, eq, gt, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { executor, rowsOf } from "@/lib/db";
import { embeddedCache } from "@/lib/db/embedded-cache";
import { sessionIsLive } from "@/lib/sessions/fragments";
import { userIsActive } from "@/lib/users/fragments";
import {
  oauthClients,
  oauthConsents,
  oauthSessionClients,
  openidModels,
  type OauthClientRow,
  type OauthConsentRow,
  type OpenidModelRow,
} from "@/lib/db/schema";

// ── oidc-provider's models ──────────────────────────────────────────────────────────────────────────

export interface ModelValues {
  payload: Record<string, unknown>;
  grantId?: string | null;
  uid?: string | null;
  accountId?: string | null;
  /** The Sesame session a code or token was issued under: it is found only while that session lives. */
  sessionId?: string | null;
  expiresAt?: Date | null;
}

const modelOf = (tenantId: string, kind: string, id: string) =>
  and(eq(openidModels.tenantId, tenantId), eq(openidModels.kind, kind), eq(openidModels.id, id));

const live = () => or(isNull(openidModels.expiresAt), gt(openidModels.expiresAt, sql`now()`));

/** A model bound to no Sesame session, or to one that is live (not ended by any path, not expired). */
const sessionLive = () => or(isNull(openidModels.sessionId), sessionIsLive(openidModels.sessionId));

/** The kinds that act for their user: refused once the user is deleted or locked. */
const USER_TOKENS = ["AuthorizationCode", "AccessToken", "RefreshToken"];

/** A token of a user who still exists and is not locked (or a model that acts for no user). */
const userActive = (tenantId: string, kind: string) =>
  USER_TOKENS.includes(kind)
    ? or(isNull(openidModels.accountId), userIsActive(tenantId, openidModels.accountId))
    : undefined;

export async function upsertModel(tenantId: string, kind: string, id: string, values: ModelValues) {
  const db = await executor();
  const row = { tenantId, kind, id, consumedAt: null, ...values };
  await db
    .insert(openidModels)
    .values(row)
    .onConflictDoUpdate({
      target: [openidModels.tenantId, openidModels.kind, openidModels.id],
      set: { ...values, consumedAt: null },
    });
}

/**
 * {@link upsertModel} of an authorization code, and in the same statement the record that its Sesame
 * session gave the client tokens (once per session and client: back-channel logout,
 * {@link takeEndedSessionClients}). One statement: both are written or neither.
 */
export async function upsertCodeWithSessionClient(
  tenantId: string,
  id: string,
  values: ModelValues & { sessionId: string; accountId: string },
  clientId: string,
): Promise<void> {
  const db = await executor();
  await db.execute(sql`
    with session_client as (
      insert into ${oauthSessionClients} (tenant_id, session_id, client_id, account_id)
      values (${tenantId}, ${values.sessionId}, ${clientId}, ${values.accountId})
      on conflict do nothing
    )
    insert into ${openidModels}
      (tenant_id, kind, id, payload, grant_id, uid, account_id, session_id, consumed_at, expires_at)
    values (${tenantId}, 'AuthorizationCode', ${id}, ${JSON.stringify(values.payload)}::jsonb,
      ${values.grantId ?? null}, ${values.uid ?? null}, ${values.accountId}, ${values.sessionId}, null,
      ${values.expiresAt ? values.expiresAt.toISOString() : null}::timestamptz)
    on conflict (tenant_id, kind, id) do update set payload = excluded.payload,
      grant_id = excluded.grant_id, uid = excluded.uid, account_id = excluded.account_id,
      session_id = excluded.session_id, consumed_at = null, expires_at = excluded.expires_at`);
}

/**
 * A model that has not expired; when it was issued under a Sesame session (codes and their access
 * tokens), whose session is live; when it acts for a user (codes, access and refresh tokens), whose user
 * exists and is not locked: one statement, whatever ended the session or the user.
 */
export async function findModel(
  tenantId: string,
  kind: string,
  id: string,
): Promise<OpenidModelRow | undefined> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(openidModels)
    .where(and(modelOf(tenantId, kind, id), live(), sessionLive(), userActive(tenantId, kind)));
  return row;
}

const grants = alias(openidModels, "grant");

/**
 * {@link findModel} of a code or token and, in the same statement, its grant as {@link findModel} would
 * find it (not expired), or null: oidc-provider reads the grant right after the code or token.
 */
export async function findModelWithGrant(
  tenantId: string,
  kind: string,
  id: string,
): Promise<{ model: OpenidModelRow; grant: OpenidModelRow | null } | undefined> {
  const db = await executor();
  const [row] = await db
    .select({ model: openidModels, grant: grants })
    .from(openidModels)
    .leftJoin(
      grants,
      and(
        eq(grants.tenantId, tenantId),
        eq(grants.kind, "Grant"),
        eq(grants.id, openidModels.grantId),
        or(isNull(grants.expiresAt), gt(grants.expiresAt, sql`now()`)),
      ),
    )
    .where(and(modelOf(tenantId, kind, id), live(), sessionLive(), userActive(tenantId, kind)));
  return row;
}

export async function findModelByUid(tenantId: string, kind: string, uid: string) {
  const db = await executor();
  const [row] = await db
    .select()
    .from(openidModels)
    .where(
      and(
        eq(openidModels.tenantId, tenantId),
        eq(openidModels.kind, kind),
        eq(openidModels.uid, uid),
        live(),
      ),
    )
    .orderBy(asc(openidModels.createdAt))
    .limit(1);
  return row;
}

/** Marks a model consumed: true for the one call that did, false when it already was (or is gone). */
export async function consumeModel(tenantId: string, kind: string, id: string): Promise<boolean> {
  const db = await executor();
  const rows = await db
    .update(openidModels)
    .set({ consumedAt: sql`now()` })
    .where(and(modelOf(tenantId, kind, id), isNull(openidModels.consumedAt)))
    .returning({ id: openidModels.id });
  return rows.length === 1;
}

export async function deleteModel(tenantId: string, kind: string, id: string): Promise<void> {
  const db = await executor();
  await db.delete(openidModels).where(modelOf(tenantId, kind, id));
}

/** Every model of the grant (codes, access and refresh tokens): a reuse revokes the family. */
export async function deleteGrantModels(tenantId: string, grantId: string): Promise<number> {
  const db = await executor();
  const rows = await db
    .delete(openidModels)
    .where(and(eq(openidModels.tenantId, tenantId), eq(openidModels.grantId, grantId)))
    .returning({ id: openidModels.id });
  return rows.length;
}

/** Every model of a user of a kind (sessions, grants): the Sesame session ended or consent revoked. */
export async function selectAccountModels(tenantId: string, kind: string, accountId: string) {
  const db = await executor();
  return db
    .select()
    .from(openidModels)
    .where(
      and(
        eq(openidModels.tenantId, tenantId),
        eq(openidModels.kind, kind),
        eq(openidModels.accountId, accountId),
        live(),
      ),
    );
}

/** Removes expired models (a background sweep); returns how many went. */
export async function deleteExpiredModels(limit: number): Promise<number> {
  const db = await executor();
  const rows = await db
    .delete(openidModels)
    .where(
      sql`ctid in (select ctid from ${openidModels} where ${openidModels.expiresAt} < now()
        limit ${limit} for update skip locked)`,
    )
    .returning({ id: openidModels.id });
  return rows.length;
}

// ── clients ─────────────────────────────────────────────────────────────────────────────────────────

export async function insertClient(
  tenantId: string,
  clientId: string,
  metadata: Record<string, unknown>,
  firstParty: boolean,
): Promise<OauthClientRow> {
  const db = await executor();
  const [row] = await forgettingClients(() =>
    db.insert(oauthClients).values({ tenantId, clientId, metadata, firstParty }).returning(),
  );
  return row!;
}

/** Writes a client's metadata (oidc-provider's registration management writes through here too). */
export async function upsertClient(
  tenantId: string,
  clientId: string,
  metadata: Record<string, unknown>,
): Promise<void> {
  const db = await executor();
  await forgettingClients(async () => {
    await db
      .insert(oauthClients)
      .values({ tenantId, clientId, metadata })
      .onConflictDoUpdate({
        target: [oauthClients.tenantId, oauthClients.clientId],
        set: { metadata, updatedAt: sql`now()` },
      });
  });
}

export async function updateClientRow(
  tenantId: string,
  clientId: string,
  values: { metadata?: Record<string, unknown>; firstParty?: boolean },
): Promise<OauthClientRow | undefined> {
  const db = await executor();
  const [row] = await forgettingClients(() =>
    db
      .update(oauthClients)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(oauthClients.tenantId, tenantId), eq(oauthClients.clientId, clientId)))
      .returning(),
  );
  return row;
}

/**
 * Clients, kept in memory on the embedded database only (lib/db/embedded-cache.ts): every write of a
 * client goes through this file, which empties the cache before and after it. On Postgres every request
 * reads its client.
 */
const clients = embeddedCache<OauthClientRow | undefined>("openidClients");

async function forgettingClients<T>(write: () => Promise<T>): Promise<T> {
  clients.forget();
  try {
    return await write();
  } finally {
    clients.forget();
  }
}

export function findClientRow(tenantId: string, clientId: string): Promise<OauthClientRow | undefined> {
  return clients.read(`${tenantId}|${clientId}`, async () => {
    const db = await executor();
    const [row] = await db
      .select()
      .from(oauthClients)
      .where(and(eq(oauthClients.tenantId, tenantId), eq(oauthClients.clientId, clientId)));
    return row;
  });
}

/** A page of the tenant's clients, oldest first, and how many there are. */
export async function selectClients(
  tenantId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: OauthClientRow[]; total: number }> {
  const db = await executor();
  const rows = await db
    .select()
    .from(oauthClients)
    .where(eq(oauthClients.tenantId, tenantId))
    .orderBy(asc(oauthClients.createdAt), asc(oauthClients.clientId))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db
    .select({ n: count() })
    .from(oauthClients)
    .where(eq(oauthClients.tenantId, tenantId));
  return { rows, total: Number(total?.n ?? 0) };
}

/** Deletes a client and its consents; the row deleted, or undefined when there was none. */
export async function deleteClientRow(
  tenantId: string,
  clientId: string,
): Promise<OauthClientRow | undefined> {
  const db = await executor();
  const [row] = await forgettingClients(() =>
    db
      .delete(oauthClients)
      .where(and(eq(oauthClients.tenantId, tenantId), eq(oauthClients.clientId, clientId)))
      .returning(),
  );
  if (!row) return undefined;
  await db
    .delete(oauthConsents)
    .where(and(eq(oauthConsents.tenantId, tenantId), eq(oauthConsents.clientId, clientId)));
  return row;
}

// ── consents ────────────────────────────────────────────────────────────────────────────────────────

const consentOf = (tenantId: string, userId: string, clientId: string) =>
  and(
    eq(oauthConsents.tenantId, tenantId),
    eq(oauthConsents.userId, userId),
    eq(oauthConsents.clientId, clientId),
  );

export async function findConsent(
  tenantId: string,
  userId: string,
  clientId: string,
): Promise<OauthConsentRow | undefined> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(oauthConsents)
    .where(consentOf(tenantId, userId, clientId));
  return row;
}

export async function upsertConsent(tenantId: string, userId: string, clientId: string, scopes: string[]) {
  const db = await executor();
  await db
    .insert(oauthConsents)
    .values({ tenantId, userId, clientId, scopes })
    .onConflictDoUpdate({
      target: [oauthConsents.tenantId, oauthConsents.userId, oauthConsents.clientId],
      set: { scopes, updatedAt: sql`now()` },
    });
}

export async function deleteConsent(tenantId: string, userId: string, clientId: string): Promise<boolean> {
  const db = await executor();
  const rows = await db
    .delete(oauthConsents)
    .where(consentOf(tenantId, userId, clientId))
    .returning({ id: oauthConsents.clientId });
  return rows.length === 1;
}

/**
 * Every model of a user for one client (its grants, codes, access and refresh tokens): the user revoked
 * the client. Returns how many went.
 */
export async function deleteAccountClientModels(
  tenantId: string,
  accountId: string,
  clientId: string,
): Promise<number> {
  const db = await executor();
  const rows = await db
    .delete(openidModels)
    .where(
      and(
        eq(openidModels.tenantId, tenantId),
        eq(openidModels.accountId, accountId),
        sql`${openidModels.payload}->>'clientId' = ${clientId}`,
      ),
    )
    .returning({ id: openidModels.id });
  return rows.length;
}

/** A user's consents with the name of each client. */
export async function selectConsentsWithClients(tenantId: string, userId: string) {
  const db = await executor();
  return db
    .select({ consent: oauthConsents, metadata: oauthClients.metadata })
    .from(oauthConsents)
    .innerJoin(
      oauthClients,
      and(
        eq(oauthClients.tenantId, oauthConsents.tenantId),
        eq(oauthClients.clientId, oauthConsents.clientId),
      ),
    )
    .where(and(eq(oauthConsents.tenantId, tenantId), eq(oauthConsents.userId, userId)))
    .orderBy(asc(oauthConsents.createdAt), asc(oauthConsents.clientId));
}

// ── sessions' clients (back-channel logout) ────────────────────────────────────────────────────────

export interface EndedSessionClient {
  tenantId: string;
  sessionId: string;
  clientId: string;
  accountId: string;
  /** The client's `backchannel_logout_uri`, when it (still) has one. */
  logoutUri: string | null;
}

/**
 * Deletes up to `limit` rows whose Sesame session ended (no live row: logged out, revoked, deleted with
 * its user, expired) and returns them with the client's `backchannel_logout_uri`; the codes and tokens
 * issued under those sessions (already refused by `findModel`) go in the same statement. SKIP LOCKED:
 * concurrent sweepers take different rows; in the caller's transaction with the deliveries it queues.
 */
export async function takeEndedSessionClients(limit: number): Promise<EndedSessionClient[]> {
  const db = await executor();
  const result = await db.execute(sql`
    with ended as (
      select tenant_id, session_id, client_id from ${oauthSessionClients}
      where not ${sessionIsLive(oauthSessionClients.sessionId)}
      limit ${limit}
      for update skip locked
    ),
    gone as (
      delete from ${oauthSessionClients} l using ended
      where l.tenant_id = ended.tenant_id and l.session_id = ended.session_id
        and l.client_id = ended.client_id
      returning l.tenant_id, l.session_id, l.client_id, l.account_id
    ),
    purged as (
      delete from ${openidModels} m using gone
      where m.tenant_id = gone.tenant_id and m.session_id = gone.session_id
    )
    select gone.tenant_id, gone.session_id, gone.client_id, gone.account_id,
      c.metadata->>'backchannel_logout_uri' as logout_uri
    from gone left join ${oauthClients} c on c.tenant_id = gone.tenant_id and c.client_id = gone.client_id`);
  return rowsOf<{
    tenant_id: string;
    session_id: string;
    client_id: string;
    account_id: string;
    logout_uri: string | null;
  }>(result).map((row) => ({
    tenantId: row.tenant_id,
    sessionId: row.session_id,
    clientId: row.client_id,
    accountId: row.account_id,
    logoutUri: row.logout_uri,
  }));
}
