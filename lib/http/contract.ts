import type { z } from "zod";
import type { ZodOpenApiResponsesObject } from "zod-openapi";
import type { ApiKeyScope } from "@/lib/db/schema";

/** The API surfaces; each has its own error shape, auth scheme and OpenAPI document. */
export const SURFACES = ["authenticator", "passkey", "public", "flow", "admin", "health"] as const;
export type Surface = (typeof SURFACES)[number];

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * How a route is authenticated.
 * - `admin-key`: `Authorization: Bearer <key>` with the admin scope, for the tenant in the path.
 * - `passkey-key`: header `apiKey: <key>` with the passkey scope, for the tenant in the path.
 * - `authenticator-key`: `Authorization: secret <key>` or `Bearer <key>`; the key names the tenant.
 */
export type AuthRequirement =
  { kind: "none" } | { kind: "admin-key" } | { kind: "passkey-key" } | { kind: "authenticator-key" };

export const AUTH_SCOPE: Record<Exclude<AuthRequirement["kind"], "none">, ApiKeyScope> = {
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
  params?: P;
  query?: Q;
  body?: B;
  /** An empty body is read as `{}` (the reference accepts an empty POST on some routes). */
  emptyBodyAs?: "empty-object";
  /**
   * Load the tenant named by the `tenantId` path parameter before authenticating (404 when there is
   * none) and hand it to the handler.
   */
  loadsTenant?: true;
  /**
   * Cross-origin browser access: `tenant-origins` allows the tenant's configured origins (needs
   * `loadsTenant`), `any` allows every origin (public, credential-free resources such as a JWKS).
   */
  cors?: "tenant-origins" | "any";
  responses: ZodOpenApiResponsesObject;
}

/** Declares a contract with its types inferred (the exact object type, so flags like `loadsTenant` stay literal). */
export function defineContract<C extends Contract>(contract: C): C {
  return contract;
}
