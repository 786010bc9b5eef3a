import { z } from "zod";
import { defineContract } from "@/lib/contracts/contract";
import type { ConnectedApp as ConnectedAppInfo } from "@/lib/openid";
import { platformErrors } from "../schemas";
import { jsonResponse, publicRoute, tenantParams } from "./common";

export const ConnectedApp = z
  .object({
    client_id: z.string(),
    name: z.string().nullable().meta({ description: "The client's name, null when it has none" }),
    scopes: z.array(z.string()).meta({ description: "The scopes the user allowed" }),
    created_at: z.iso.datetime({ offset: true }),
    updated_at: z.iso.datetime({ offset: true }),
  })
  .meta({ id: "ConnectedApp", description: "An application the user allowed to sign them in (OpenID)" });

export const connectedAppWire = (app: ConnectedAppInfo): z.input<typeof ConnectedApp> => ({
  client_id: app.clientId,
  name: app.name,
  scopes: app.scopes,
  created_at: app.createdAt.toISOString(),
  updated_at: app.updatedAt.toISOString(),
});

const connectedApps = {
  ...publicRoute,
  tags: ["Connected apps"] as string[],
  auth: { kind: "session" } as const,
};

export const listConnectedApps = defineContract({
  ...connectedApps,
  method: "GET",
  path: "/t/{tenantId}/connected_apps",
  operationId: "listConnectedApps",
  summary: "The apps the signed-in user allowed to sign them in",
  description:
    "The OpenID Connect clients the user consented to, oldest first. First-party clients never ask for " +
    "consent and are not listed.",
  responses: {
    "200": jsonResponse("The connected apps", z.array(ConnectedApp)),
    ...platformErrors(401, 404, 500),
  },
});

export const revokeConnectedApp = defineContract({
  ...connectedApps,
  method: "DELETE",
  path: "/t/{tenantId}/connected_apps/{clientId}",
  operationId: "revokeConnectedApp",
  summary: "Disconnect an app",
  description:
    "Withdraws the consent: the app's access and refresh tokens for this user are revoked at once and its " +
    "next sign-in asks again.",
  params: tenantParams.extend({
    clientId: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9._~-]+$/, "must be a client id")
      .meta({ description: "The app's `client_id`" }),
  }),
  responses: { "204": { description: "Disconnected" }, ...platformErrors(400, 401, 404, 500) },
});
