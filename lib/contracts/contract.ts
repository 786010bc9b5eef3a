import { z } from "zod";
import type { ZodOpenApiResponsesObject } from "zod-openapi";
import type { ApiKeyScope } from "@/lib/db/schema";
import { PlatformError } from "./schemas";

/** The API surfaces; each has its own error shape, auth scheme and OpenAPI document. */
export const SURFACES = ["authenticator", "passkey", "public", "flow", "admin", "health"] as const;
export type Surface = (typeof SURFACES)[number];

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * How a route is authenticated.
 * - `admin-key`: `Authorization: Bearer <key>` with the admin scope, for the tenant in the path.
 * - `passkey-key`: header `apiKey: <key>` with the passkey scope, for the tenant in the path.
 * - `authenticator-key`: `Authorization: secret <key>` or `Bearer <key>`; the key names the tenant.
 * - `session`: a session of the path's tenant, as `Authorization: Bearer <jwt>` or the session cookie
 *   (needs `loadsTenant`). Cookie-authenticated state changes must come from an allowed Origin (CSRF).
 */
export type AuthRequirement =
  | { kind: "none" }
  | { kind: "admin-key" }
  | { kind: "passkey-key" }
  | { kind: "authenticator-key" }
  | { kind: "session" };

/**
 * A session the route reads without requiring it: `optional` resolves the caller's session (cookie or
 * `Authorization: Bearer`) and hands it to the handler, undefined when none is presented or it is not
 * valid; a function decides per request from the parsed params (the flow routes read it only for a
 * flow that acts for the signed-in user). No Origin check: such a route guards itself (flows: CSRF token).
 */
export type SessionOption = "optional" | ((params: Record<string, unknown>) => boolean);

export type ApiKeyAuthKind = Exclude<AuthRequirement["kind"], "none" | "session">;

export const AUTH_SCOPE: Record<ApiKeyAuthKind, ApiKeyScope> = {
  "admin-key": "admin",
  "passkey-key": "passkey",
  "authenticator-key": "authenticator",
};

/**
 * One endpoint's contract: what the route wrapper validates and what the OpenAPI document says,
 * from the same zod schemas.
 */
export interface Contract<
  P extends z.ZodObject = z.ZodObject,
  Q extends z.ZodObject = z.ZodObject,
  B extends z.ZodType = z.ZodType,
> {
  surface: Surface;
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/t/{tenantId}/admin/`. Param names match the route folders. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  auth: AuthRequirement;
  /** With `auth: {kind: "none"}`: the caller's session if any ({@link SessionOption}). Needs `loadsTenant`. */
  session?: SessionOption;
  params?: P;
  query?: Q;
  body?: B;
  /** An empty body is read as `{}` (the reference accepts an empty POST on some routes). */
  emptyBodyAs?: "empty-object";
  /**
   * Load the tenant named by the `tenantId` path parameter (404 when there is none) and hand it to the
   * handler: before authenticating, except with `admin-key`, where the key comes first so that an unknown
   * tenant answers 401 as a known one does.
   */
  loadsTenant?: true;
  /**
   * Cross-origin browser access: `tenant-origins` allows the tenant's configured origins (needs
   * `loadsTenant`), `tenant-credentials` the same with cookies (`Access-Control-Allow-Credentials`) and the
   * session headers exposed, `any` allows every origin (public, credential-free resources such as a JWKS).
   */
  cors?: "tenant-origins" | "tenant-credentials" | "any";
  /**
   * A deprecated endpoint (spec, Versioning): answers with `Deprecation` and a `Link` to its successor,
   * and is gone (404) for tenants on API version 3.
   */
  deprecated?: { successor: string };
  /**
   * The database away is answered as a fault (500) instead of 503 with Retry-After: the spec's status
   * page says so for its database check, whichever step (tenant, key, check) meets it.
   */
  databaseUnavailableAs500?: true;
  /**
   * The rate-limit group this endpoint counts against (a key of the tenant's `platform.rateLimits`,
   * e.g. `passcode`, `password`; defaults in lib/rate-limit/groups.ts): every request that passes auth
   * and validation counts once per IP and once per user (the session's user, else the body's
   * `user_id`, `email` or `username`); over the limit it is 429 with `Retry-After`. Needs `loadsTenant`.
   * defineContract documents the 429.
   */
  rateLimit?: string;
  /**
   * Count `rateLimit` per IP only, never per user: for endpoints a stranger may call about anyone's
   * account (mailing a login code), where a per-user count would let them use up the owner's allowance.
   */
  rateLimitPerIpOnly?: boolean;
  responses: ZodOpenApiResponsesObject;
}

/** Header values are whole seconds or counts within the bounds of a tenant's rate-limit settings. */
const count = (min: number, max: number, description: string) =>
  z.number().int().min(min).max(max).meta({ description });

const RateLimitHeaders = z.object({
  "Retry-After": count(1, 86_400, "Seconds until a request may pass again"),
  "X-RateLimit-Limit": count(1, 100_000, "Requests per window, per IP and per user"),
  "X-RateLimit-Remaining": count(0, 100_000, "Requests left in the window (0)"),
  "X-RateLimit-Reset": count(1, 86_400, "Seconds until the window ends"),
});

/** The 429 every rate-limited endpoint may answer (platform error shape). */
export const RATE_LIMITED_RESPONSE = {
  description: "Too Many Requests: over the tenant's rate limit for this endpoint group, per IP or per user",
  headers: RateLimitHeaders,
  content: { "application/json": { schema: PlatformError } },
};

/**
 * Declares a contract with its types inferred (the exact object type, so flags like `loadsTenant` stay
 * literal). A rate-limited contract gets its 429 response documented.
 */
export function defineContract<C extends Contract>(contract: C): C {
  if (!contract.rateLimit || contract.responses["429"]) return contract;
  return { ...contract, responses: { ...contract.responses, "429": RATE_LIMITED_RESPONSE } };
}
