import type { z } from "zod";
import type { AuthenticatedKey } from "@/lib/api-keys";
import type { AuditContext } from "@/lib/audit";
import { findTenant, getTenant, type Tenant } from "@/lib/tenants";
import { getConfig } from "@/lib/config";
import { REQUEST_DATABASE_DEADLINE_MS, withDatabaseDeadline } from "@/lib/db";
import { AppError, NotFound, ValidationFailed, formatZodIssues } from "@/lib/errors";
import { authenticateSession, type AuthenticatedSession } from "@/lib/sessions";
import { getLogger } from "@/lib/log";
import { observeHttpRequest, observePreflight } from "@/lib/metrics";
import {
  applyRateLimitHeaders,
  consumeRateLimit,
  RateLimited,
  type RateLimitOutcome,
} from "@/lib/rate-limit";
import { authenticate } from "./auth";
import { readJsonBody } from "./body";
import type { Contract, SessionOption } from "@/lib/contracts/contract";
import { allowedOrigin, applyCors, preflightResponse } from "./cors";
import { presentError, toAppError } from "./presenters";
import { requestContext, type RequestContext } from "@/lib/request/context";

type Infer<T, Fallback> = T extends z.ZodType ? z.output<T> : Fallback;

export interface RouteInput<C extends Contract> extends RequestContext {
  req: Request;
  params: Infer<C["params"], Record<string, never>>;
  query: Infer<C["query"], Record<string, never>>;
  body: Infer<C["body"], undefined>;
  /** The API key that authenticated the request (undefined on unauthenticated routes). */
  key: C["auth"]["kind"] extends "none" ? undefined : AuthenticatedKey;
  /** The tenant of the path (contracts with `loadsTenant`) or of the Authenticator API key. */
  tenant: C["loadsTenant"] extends true
    ? Tenant
    : C["auth"]["kind"] extends "authenticator-key"
      ? Tenant
      : undefined;
  /**
   * The caller's session: always there with `auth: {kind: "session"}`, when presented and valid with a
   * `session` option, else undefined.
   */
  session: C["auth"]["kind"] extends "session"
    ? AuthenticatedSession
    : C["session"] extends SessionOption
      ? AuthenticatedSession | undefined
      : undefined;
  /** Who and where, for audit records: the API key (if any), IP, user agent and request id. */
  audit: AuditContext;
}

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

function parse<S extends z.ZodType>(schema: S | undefined, value: unknown, where: string): unknown {
  if (!schema) return where === "body" ? undefined : {};
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationFailed(formatZodIssues(result.error, where));
  return result.data;
}

/**
 * A form body's fields checked against `schema` (VALIDATION_FAILED in the contract's wire otherwise), for
 * routes that take a form post (`route()` reads JSON bodies only).
 */
export function checkFormFields(schema: z.ZodType, form: URLSearchParams): void {
  parse(schema, Object.fromEntries(form), "body");
}

/**
 * Builds a Next.js route handler from a contract: request id → params → auth → query → body →
 * rate limit → handler → presenter. Every failure leaves as the surface's error shape with `X-Request-Id`.
 * The request's database work has a deadline (REQUEST_DATABASE_DEADLINE_MS): past it, or while the
 * database is away, the answer is DATABASE_UNAVAILABLE (503 with Retry-After) within 5 s.
 */
export function route<C extends Contract>(
  contract: C,
  handler: (input: RouteInput<C>) => Promise<Response>,
): (req: Request, context: RouteContext) => Promise<Response> {
  const answer = answerOf(contract, handler);
  return (req, context) => withDatabaseDeadline(REQUEST_DATABASE_DEADLINE_MS, () => answer(req, context));
}

function answerOf<C extends Contract>(
  contract: C,
  handler: (input: RouteInput<C>) => Promise<Response>,
): (req: Request, context: RouteContext) => Promise<Response> {
  return async (req, context) => {
    const started = performance.now();
    const ctx = requestContext(req);
    let response: Response;
    let tenant: Tenant | undefined;
    let limited: RateLimitOutcome | undefined;
    try {
      const { params, tenantId } = await pathParams(contract, context);
      // The admin API checks its key before it looks the tenant up, so that an unknown tenant answers as a
      // known one does (401): an admin route tells a stranger nothing about which tenants exist.
      const keyFirst = contract.auth.kind === "admin-key";
      let key = keyFirst ? await authenticate(req, contract.auth, tenantId) : undefined;
      tenant = await pathTenant(contract, tenantId);
      if (contract.deprecated && tenant?.platform.apiVersion === 3) throw new NotFound();
      if (!keyFirst) key = await authenticate(req, contract.auth, tenantId);
      // An Authenticator key names its tenant itself: the handler gets it as the others get the path's.
      if (key && contract.auth.kind === "authenticator-key") tenant = await getTenant(key.tenantId);
      const session =
        contract.auth.kind === "session"
          ? await sessionOf(req, contract, tenant)
          : await optionalSessionOf(req, contract, params, tenant);
      const query = parse(contract.query, Object.fromEntries(new URL(req.url).searchParams), "query");
      let body: unknown;
      if (contract.body) {
        const raw = await readJsonBody(req);
        if (raw === undefined && !contract.emptyBodyAs) {
          // Checked as `{}`, so the answer names the required fields.
          parse(contract.body, {}, "body");
          throw new ValidationFailed(["body: is required"]);
        }
        body = parse(contract.body, raw === undefined ? {} : raw, "body");
      }
      // An optional session stays out of the actor and the rate limit: the handler decides what it means.
      const caller = contract.auth.kind === "session" ? session : undefined;
      const actor = key ? `api_key:${key.keyId}` : (caller?.user.id ?? null);
      // A session an admin started for the user (impersonation) marks every record of its requests.
      const impersonatedBy = session?.session.impersonatedBy;
      const audit: AuditContext = { ...ctx, actor, ...(impersonatedBy ? { impersonatedBy } : {}) };
      if (contract.rateLimit) {
        if (!tenant) throw new Error(`${contract.operationId}: rate limits need loadsTenant`);
        const request = contract.rateLimitPerIpOnly
          ? { ip: ctx.ip, audit }
          : { ip: ctx.ip, sessionUserId: caller?.user.id, body, audit };
        limited = await consumeRateLimit(tenant, contract.rateLimit, request);
      }
      response = await handler({
        ...ctx,
        req,
        params,
        query,
        body,
        key,
        tenant,
        session,
        audit,
      } as RouteInput<C>);
    } catch (thrown) {
      let error = toAppError(thrown);
      if (contract.databaseUnavailableAs500 && error.code === "DATABASE_UNAVAILABLE") {
        error = new AppError("INTERNAL", undefined, { cause: error });
      }
      if (error instanceof RateLimited) limited = error.outcome;
      response = presentError(contract.surface, error);
      if (response.status >= 500) {
        getLogger().error(
          { err: error.cause ?? error, requestId: ctx.requestId, route: contract.operationId },
          "request failed",
        );
      }
    }
    if (limited) applyRateLimitHeaders(response, limited);
    applyCors(response, allowedOrigin(req, contract, tenant), contract);
    if (contract.deprecated && tenant && tenant.platform.apiVersion !== 3) {
      response.headers.set("deprecation", "true");
      const successor = contract.deprecated.successor.replace("{tenantId}", tenant.id);
      response.headers.append("link", `<${getConfig().baseUrl}${successor}>; rel="successor-version"`);
    }
    response.headers.set("x-request-id", ctx.requestId);
    const elapsed = performance.now() - started;
    observeHttpRequest(contract, response.status, elapsed / 1000);
    getLogger().debug(
      {
        requestId: ctx.requestId,
        route: contract.operationId,
        status: response.status,
        ms: Math.round(elapsed),
      },
      "request",
    );
    return response;
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The session of a session-authenticated route. A state change carried by the cookie must come from
 * one of the tenant's origins or Sesame's own (CSRF): browsers always send Origin on such requests.
 */
async function sessionOf(req: Request, contract: Contract, tenant: Tenant | undefined) {
  if (!tenant) throw new Error(`${contract.operationId}: session auth needs loadsTenant`);
  const session = await authenticateSession(req, tenant);
  if (session.via === "cookie" && !SAFE_METHODS.has(req.method)) {
    const origin = req.headers.get("origin");
    const own = new URL(getConfig().baseUrl).origin;
    if (!origin || (origin !== own && !tenant.origins.includes(origin))) {
      throw new AppError("FORBIDDEN", "Forbidden", { details: ["cross-site request refused (Origin)"] });
    }
  }
  return session;
}

/** The caller's session for a contract with a `session` option that applies here, else undefined. */
async function optionalSessionOf(
  req: Request,
  contract: Contract,
  params: Record<string, unknown>,
  tenant: Tenant | undefined,
): Promise<AuthenticatedSession | undefined> {
  const option = contract.session;
  if (!option || (typeof option === "function" && !option(params))) return undefined;
  if (!tenant) throw new Error(`${contract.operationId}: a session option needs loadsTenant`);
  try {
    return await authenticateSession(req, tenant);
  } catch (error) {
    if (error instanceof AppError && error.code === "SESSION_INVALID") return undefined;
    throw error;
  }
}

/** The parsed path parameters and the path's tenant id, if any. */
async function pathParams(contract: Contract, context: RouteContext) {
  const params = parse(contract.params, await context.params, "params") as Record<string, unknown>;
  const tenantId = typeof params.tenantId === "string" ? params.tenantId : undefined;
  return { params, tenantId };
}

/** For contracts with `loadsTenant`, the path's tenant (404 when there is none); else undefined. */
async function pathTenant(contract: Contract, tenantId: string | undefined): Promise<Tenant | undefined> {
  if (!contract.loadsTenant) return undefined;
  const tenant = tenantId ? await findTenant(tenantId) : undefined;
  if (!tenant) throw new NotFound("tenant not found");
  return tenant;
}

/** Parses the path parameters and, for contracts with `loadsTenant`, loads the path's tenant (404). */
async function resolvePath(contract: Contract, context: RouteContext) {
  const { params, tenantId } = await pathParams(contract, context);
  return { params, tenantId, tenant: await pathTenant(contract, tenantId) };
}

/**
 * The OPTIONS handler of a route that allows cross-origin calls: answers the preflight for the
 * tenant's origins (or any origin), without authentication.
 */
export function preflight(
  contract: Contract,
  ...others: Contract[]
): (req: Request, context: RouteContext) => Promise<Response> {
  const contracts = [contract, ...others];
  const answer = async (req: Request, context: RouteContext): Promise<Response> => {
    try {
      const { tenant } = await resolvePath(contract, context);
      // API version 3: deprecated endpoints are gone, preflights included.
      const methods = contracts
        .filter((c) => !(c.deprecated && tenant?.platform.apiVersion === 3))
        .map((c) => c.method);
      if (methods.length === 0) throw new NotFound();
      const credentials = contract.cors === "tenant-credentials";
      return preflightResponse(req, allowedOrigin(req, contract, tenant), methods, credentials);
    } catch (thrown) {
      return presentError(contract.surface, toAppError(thrown));
    }
  };
  return async (req, context) => {
    const started = performance.now();
    const response = await answer(req, context);
    observePreflight(contract, response.status, (performance.now() - started) / 1000);
    return response;
  };
}
