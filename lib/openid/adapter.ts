import Provider, { errors } from "oidc-provider";
import { authenticateApiKey } from "@/lib/api-keys";
import { seal, sha256Hex, unseal } from "@/lib/crypto";
import type { OauthClientRow, OpenidModelRow } from "@/lib/db/schema";
import { UUID_PATTERN } from "@/lib/tenants";
import { checkRedirectUris, hashClientSecret, logoutUriRefusal } from "./client-rules";
import {
  consumeModel,
  deleteGrantModels,
  deleteModel,
  findClientRow,
  findModel,
  findModelWithGrant,
  findModelByUid,
  upsertCodeWithSessionClient,
  upsertClient,
  upsertModel,
} from "./store";

type Payload = Record<string, unknown>;

// The client row oidc-provider's Client.find read in a request (keyed by its Koa context), so that the
// request's own later need of it (lib/openid/provider.ts, the grant of a first-party client) does not
// read it again. Per request only: nothing outlives the request.
const clientRows = new WeakMap<object, OauthClientRow>();

/** The client's row: the one read in this request when there was one, else from the store. */
export async function clientRowOf(tenantId: string, clientId: string): Promise<OauthClientRow | undefined> {
  const ctx = Provider.ctx;
  const row = ctx ? clientRows.get(ctx) : undefined;
  if (row && row.tenantId === tenantId && row.clientId === clientId) return row;
  return findClientRow(tenantId, clientId);
}

const SEALED_ID = "sesameSealedId";
const SEAL_PURPOSE = "openid-session-id";

/**
 * What is valid only while the Sesame session it was issued under lives: authorization codes and the
 * access tokens redeemed from them. Refresh tokens (Sesame issues them only for `offline_access`) and the
 * access tokens a refresh grant issues (`gty` ends in `refresh_token`) are offline access, which outlives
 * the session: OpenID Connect Back-Channel Logout 1.0 §2.7 (they end with the user's lock or deletion,
 * store.ts findModel, with a revocation, or when the user withdraws the consent).
 */
function boundToSession(kind: string, payload: Payload): boolean {
  if (kind === "AuthorizationCode") return true;
  if (kind !== "AccessToken") return false;
  return !(typeof payload.gty === "string" && payload.gty.split(" ").includes("refresh_token"));
}

/** Seconds since the epoch, as oidc-provider counts. */
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

/** A stored model as oidc-provider reads it: its payload with its id, and when it was consumed. */
function payloadOf(row: OpenidModelRow, id: string): Payload {
  const { [SEALED_ID]: _sealed, ...payload } = row.payload;
  void _sealed;
  return { ...payload, jti: id, ...(row.consumedAt ? { consumed: epoch(row.consumedAt) } : {}) };
}

/**
 * The kinds oidc-provider reads the grant of right after finding them (the token endpoint, UserInfo,
 * introspection): found together with their grant in one statement. The grant so read (or that there is
 * none) serves the request's next read of it, once; any write of a grant in the request forgets it.
 * Per request (its Koa context) only: nothing outlives the request.
 */
const WITH_GRANT = new Set(["AuthorizationCode", "AccessToken", "RefreshToken"]);
const prefetchedGrants = new WeakMap<object, Map<string, OpenidModelRow | null>>();

function forgetPrefetchedGrants(): void {
  const ctx = Provider.ctx;
  if (ctx) prefetchedGrants.delete(ctx);
}

/**
 * oidc-provider's storage for one tenant: one instance per model kind, every call a statement on the
 * tenant's rows (lib/openid/store.ts). Ids of tokens, codes, sessions and interactions are bearer
 * secrets, so only their SHA-256 is stored (and the payload's copy, `jti`, is dropped and restored from
 * the id presented). Consuming is one conditional UPDATE: of two concurrent redemptions of one code or
 * refresh token only one succeeds; the other revokes the whole grant (RFC 9700 §4.14) and fails.
 * Codes, and the access tokens redeemed from them, are found only while the Sesame session they were
 * issued under is live (the check is part of the one statement that loads them), so whatever ends the
 * session (logout, revocation, lock, deletion, expiry) ends them on every instance at once: no list of end
 * paths to keep. Offline access (refresh tokens) outlives the session (`boundToSession`).
 */
export class DatabaseAdapter {
  constructor(
    private readonly tenantId: string,
    private readonly kind: string,
  ) {}

  private key(id: string): string {
    return this.kind === "Client" || this.kind === "Grant" ? id : sha256Hex(id);
  }

  async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
    if (this.kind === "Grant") forgetPrefetchedGrants();
    if (this.kind === "Client") {
      // Only dynamic registration writes clients through here: a new secret in clear text.
      checkRedirectUris(payload);
      const problem = await logoutUriRefusal(payload.backchannel_logout_uri);
      if (problem) throw new errors.InvalidClientMetadata(`backchannel_logout_uri ${problem}`);
      const metadata = { ...payload };
      if (typeof metadata.client_secret === "string") {
        metadata.client_secret = hashClientSecret(metadata.client_secret);
      }
      await upsertClient(this.tenantId, id, metadata);
      return;
    }
    const { jti, ...stored } = payload;
    // A session found by its uid needs its id back; sealed, since the id is the browser's cookie.
    if (this.kind === "Session" && typeof jti === "string")
      stored[SEALED_ID] = seal(jti, SEAL_PURPOSE, this.tenantId);
    // A code, and every token redeemed from it, names the Sesame session that issued it (`sid`, set by
    // lib/openid/provider.ts). A code and its access tokens are bound to it: found only while that session
    // is live (store.ts, findModel); the session's end sends this client a logout token and deletes them
    // (lib/openid/backchannel.ts). Offline access is not bound.
    const sessionId =
      boundToSession(this.kind, payload) && typeof payload.sid === "string" && UUID_PATTERN.test(payload.sid)
        ? payload.sid
        : null;
    const values = {
      payload: stored,
      grantId: typeof payload.grantId === "string" ? payload.grantId : null,
      uid: typeof payload.uid === "string" && this.kind === "Session" ? sha256Hex(payload.uid) : null,
      accountId: typeof payload.accountId === "string" ? payload.accountId : null,
      sessionId,
      expiresAt: typeof expiresIn === "number" ? new Date(Date.now() + expiresIn * 1000) : null,
    };
    if (
      this.kind === "AuthorizationCode" &&
      sessionId &&
      typeof payload.clientId === "string" &&
      typeof values.accountId === "string"
    ) {
      // The code, and the record that its session gave the client tokens, in one statement.
      const bound = { ...values, sessionId, accountId: values.accountId };
      await upsertCodeWithSessionClient(this.tenantId, this.key(id), bound, payload.clientId);
      return;
    }
    await upsertModel(this.tenantId, this.kind, this.key(id), values);
  }

  async find(id: string): Promise<Payload | undefined> {
    if (typeof id !== "string" || id.length === 0 || id.length > 512) return undefined;
    if (this.kind === "Client") {
      const row = await findClientRow(this.tenantId, id);
      const ctx = Provider.ctx;
      if (row && ctx) clientRows.set(ctx, row);
      // A copy: the row may be the process's cached one (store.ts), frozen.
      return row ? structuredClone(row.metadata) : undefined;
    }
    if (this.kind === "InitialAccessToken") return this.initialAccessToken(id);
    const ctx = Provider.ctx;
    if (this.kind === "Grant" && ctx) {
      const read = prefetchedGrants.get(ctx);
      if (read?.has(id)) {
        const grant = read.get(id);
        read.delete(id); // once: a second look reads the store
        return grant ? payloadOf(grant, id) : undefined;
      }
    }
    if (ctx && WITH_GRANT.has(this.kind)) {
      const found = await findModelWithGrant(this.tenantId, this.kind, this.key(id));
      if (!found) return undefined;
      const { model, grant } = found;
      if (typeof model.grantId === "string") {
        let read = prefetchedGrants.get(ctx);
        if (!read) prefetchedGrants.set(ctx, (read = new Map()));
        read.set(model.grantId, grant);
      }
      return payloadOf(model, id);
    }
    const row = await findModel(this.tenantId, this.kind, this.key(id));
    return row ? payloadOf(row, id) : undefined;
  }

  async findByUid(uid: string): Promise<Payload | undefined> {
    const row = await findModelByUid(this.tenantId, this.kind, sha256Hex(uid));
    if (!row) return undefined;
    const { [SEALED_ID]: sealed, ...payload } = row.payload;
    if (typeof sealed !== "string") return undefined;
    return { ...payload, jti: unseal(sealed, SEAL_PURPOSE, this.tenantId) };
  }

  async findByUserCode(): Promise<undefined> {
    return undefined; // no device flow
  }

  async consume(id: string): Promise<void> {
    forgetPrefetchedGrants();
    if (await consumeModel(this.tenantId, this.kind, this.key(id))) return;
    const row = await findModel(this.tenantId, this.kind, this.key(id));
    if (typeof row?.grantId === "string") await deleteGrantModels(this.tenantId, row.grantId);
    throw new errors.InvalidGrant("grant request is invalid");
  }

  async destroy(id: string): Promise<void> {
    forgetPrefetchedGrants();
    await deleteModel(this.tenantId, this.kind, this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    forgetPrefetchedGrants();
    await deleteGrantModels(this.tenantId, grantId);
  }

  /**
   * RFC 7591's initial access token: the tenant's admin API key. Not stored: a key that is valid for
   * this tenant now is a token valid for one registration.
   */
  private async initialAccessToken(value: string): Promise<Payload | undefined> {
    try {
      await authenticateApiKey(value, { scope: "admin", tenantId: this.tenantId });
    } catch {
      return undefined;
    }
    const now = Math.floor(Date.now() / 1000);
    return { jti: value, kind: "InitialAccessToken", iat: now, exp: now + 60 };
  }
}
