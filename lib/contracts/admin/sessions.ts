import { z } from "zod";
import type { SessionRow } from "@/lib/db/schema";
import { defineContract } from "@/lib/contracts/contract";
import { TenantIdParam, platformErrors } from "../schemas";
import { UserIdParam } from "./params";

const json = <S extends z.ZodType>(description: string, schema: S) => ({
  description,
  content: { "application/json": { schema } },
});

const userParams = z.object({ tenantId: TenantIdParam, userId: UserIdParam });

const sessions = {
  surface: "admin",
  auth: { kind: "admin-key" },
  loadsTenant: true,
  tags: ["Sessions"] as string[],
} as const;

/** Hanko's session row as its admin API lists it. */
export const AdminSession = z
  .object({
    id: z.uuid(),
    user_id: z.uuid(),
    user_agent: z.string().optional().meta({
      description: "The User-Agent the session started with; left out when unknown (Hanko's schema)",
    }),
    ip_address: z.string().optional().meta({
      description: "The client IP the session started with; left out when unknown (Hanko's schema)",
    }),
    created_at: z.iso.datetime(),
    updated_at: z.iso
      .datetime()
      .meta({ description: "When the session was last used (Sesame keeps no other)" }),
    expires_at: z.iso.datetime(),
    last_used: z.iso.datetime(),
    impersonated_by: z
      .string()
      .nullable()
      .meta({
        description:
          "Who started the session for the user (`POST /sessions`, impersonation): the API key as the audit " +
          "actor, `api_key:<id>`; null for the user's own logins. Not in Hanko's `Session`.",
      }),
  })
  .meta({ id: "AdminSession", description: "A user's session (Hanko's `Session`)" });

/**
 * A session row on the admin wire. A session without a user agent or IP (an admin-made one, say) leaves the
 * field out, as Hanko's session DTO does (`omitempty`): its schema has optional strings, never null.
 */
export const adminSessionWire = (row: SessionRow): z.input<typeof AdminSession> => ({
  id: row.id,
  user_id: row.userId,
  ...(row.userAgent !== null ? { user_agent: row.userAgent } : {}),
  ...(row.ip !== null ? { ip_address: row.ip } : {}),
  created_at: row.createdAt.toISOString(),
  updated_at: row.lastUsedAt.toISOString(),
  expires_at: row.expiresAt.toISOString(),
  last_used: row.lastUsedAt.toISOString(),
  impersonated_by: row.impersonatedBy,
});

export const adminListSessions = defineContract({
  ...sessions,
  method: "GET",
  path: "/t/{tenantId}/admin/users/{userId}/sessions",
  operationId: "adminListSessions",
  summary: "A user's sessions",
  description:
    "The unexpired ones, oldest first; `impersonated_by` names the API key that started a session by " +
    "impersonation (`POST /sessions`). An unknown user or a Passkey API user is 404.",
  params: userParams,
  responses: { "200": json("The sessions", z.array(AdminSession)), ...platformErrors(400, 401, 404, 500) },
});

export const adminDeleteSession = defineContract({
  ...sessions,
  method: "DELETE",
  path: "/t/{tenantId}/admin/users/{userId}/sessions/{sessionId}",
  operationId: "adminDeleteSession",
  summary: "End one of a user's sessions",
  description: "Its JWT stops working at once. Another user's session is 404.",
  params: userParams.extend({
    sessionId: z
      .uuid("must be a UUID")
      .transform((value) => value.toLowerCase())
      .meta({ description: "The session's id (the JWT's `session_id`)" }),
  }),
  responses: { "204": { description: "Ended" }, ...platformErrors(400, 401, 404, 500) },
});

export const AdminSessionTokenResponse = z
  .object({
    session_token: z.string().meta({ description: "The session JWT, signed with the tenant's key" }),
  })
  .meta({ id: "AdminSessionToken" });

export const adminCreateSession = defineContract({
  ...sessions,
  method: "POST",
  path: "/t/{tenantId}/admin/sessions",
  operationId: "adminCreateSession",
  summary: "Start a session for a user (impersonation)",
  description:
    "Issues a session JWT for the user as a login does (the tenant's key, lifetime and session limit; " +
    "`/sessions/validate` accepts it), with an empty `amr` and no second-factor check. `user_agent` and " +
    "`ip_address` are kept on the session row. The session is marked: its row keeps `impersonated_by` " +
    "(`api_key:<id>`, shown by `GET /users/{user_id}/sessions`), its JWT carries the RFC 8693 `act` claim " +
    '`{sub: "api_key:<id>"}`, and every audit record of a request made with it has ' +
    "`details.impersonated_by`. Audited as `session.created` with the API key as the actor and " +
    "`details.impersonated_user_id`. An unknown user or a Passkey API user is 404. 200 as Hanko.",
  params: z.object({ tenantId: TenantIdParam }),
  body: z.object({
    user_id: z
      .uuid("must be a UUID")
      .transform((value) => value.toLowerCase())
      .meta({ description: "The user to start a session for" }),
    user_agent: z.string().max(512, "must be at most 512 characters").optional(),
    ip_address: z.union([z.ipv4(), z.ipv6()], { error: "must be an IP address" }).optional(),
  }),
  responses: {
    "200": json("The session token", AdminSessionTokenResponse),
    ...platformErrors(400, 401, 404, 413, 415, 500),
  },
});
