import type Provider from "oidc-provider";
import { recordAuditEvent } from "@/lib/audit";
import { getLogger } from "@/lib/log";
import { emitClientEvent } from "./events";

/** Audit writes a request started; the route awaits them before answering (lib/openid/handle.ts). */
const PENDING = Symbol.for("sesame.openidAudit");

type Ctx = {
  req: { [PENDING]?: Promise<unknown>[]; headers: Record<string, string | undefined> };
  ip?: string;
  oidc?: { client?: { clientId: string }; params?: Record<string, unknown>; account?: { accountId: string } };
};

/** The audit writes the request's listeners started: all settled before the answer goes out. */
export function pendingAudit(req: object): Promise<unknown> {
  return Promise.allSettled((req as Ctx["req"])[PENDING] ?? []);
}

/**
 * Records oidc-provider's token events in the tenant's audit log: tokens issued (`oauth.token.issued`),
 * refused (`oauth.token.refused`, with oidc-provider's reason) and revoked (`oauth.token.revoked`: a
 * revoked refresh token, a reused code or refresh token), and clients registered through RFC 7591
 * (`oauth.client.created`). The actor is the client.
 */
export function auditProviderEvents(provider: Provider, tenantId: string): void {
  const record = (ctx: Ctx, type: string, details: Record<string, unknown>) => {
    const clientId = ctx.oidc?.client?.clientId;
    const write = recordAuditEvent(tenantId, {
      type,
      actor: clientId ? `oauth_client:${clientId}` : null,
      ip: ctx.ip ?? null,
      userAgent: ctx.req.headers["user-agent"] ?? null,
      details: { clientId, ...details },
    }).catch((error: unknown) =>
      getLogger().error({ err: error, tenantId }, "OpenID audit event not written"),
    );
    (ctx.req[PENDING] ??= []).push(write);
  };
  provider.on("grant.success", (ctx: Ctx) =>
    record(ctx, "oauth.token.issued", {
      grantType: ctx.oidc?.params?.grant_type,
      userId: ctx.oidc?.account?.accountId,
    }),
  );
  provider.on("grant.error", (ctx: Ctx, error: Error & { error?: string; error_detail?: string }) =>
    record(ctx, "oauth.token.refused", {
      grantType: ctx.oidc?.params?.grant_type,
      error: error.error ?? error.message,
      reason: error.error_detail,
    }),
  );
  provider.on("grant.revoked", (ctx: Ctx, grantId: string) =>
    record(ctx, "oauth.token.revoked", { grantId }),
  );
  type Registered = { clientId: string; metadata(): Record<string, unknown> };
  provider.on("registration_create.success", (ctx: Ctx, client: Registered) => {
    record(ctx, "oauth.client.created", { clientId: client.clientId, via: "registration" });
    const fired = emitClientEvent(tenantId, "oauth_client.create", {
      clientId: client.clientId,
      metadata: client.metadata(),
      firstParty: false,
    }).catch((error: unknown) =>
      getLogger().error({ err: error, tenantId }, "OpenID webhook event not written"),
    );
    (ctx.req[PENDING] ??= []).push(fired);
  });
}
