import { emitWebhookEvent } from "@/lib/webhooks";

/** The webhook data of a client event: who it is, never its secret. */
export function emitClientEvent(
  tenantId: string,
  event: "oauth_client.create" | "oauth_client.update" | "oauth_client.delete" | "oauth_client.secret_rotate",
  client: { clientId: string; metadata?: Record<string, unknown>; firstParty?: boolean },
): Promise<number> {
  const name = client.metadata?.client_name;
  return emitWebhookEvent(tenantId, event, {
    client_id: client.clientId,
    ...(typeof name === "string" ? { client_name: name } : {}),
    ...(client.firstParty === undefined ? {} : { first_party: client.firstParty }),
  });
}

/** A user granted (more) scopes to a client, or withdrew the consent. */
export function emitConsentEvent(
  tenantId: string,
  event: "oauth_consent.grant" | "oauth_consent.revoke",
  consent: { userId: string; clientId: string; scopes?: string[] },
): Promise<number> {
  return emitWebhookEvent(tenantId, event, {
    user_id: consent.userId,
    client_id: consent.clientId,
    ...(consent.scopes ? { scopes: consent.scopes } : {}),
  });
}
