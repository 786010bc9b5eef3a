"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { consoleAction } from "@/lib/console/guard";
import { createOAuthClient, deleteOAuthClient, rotateOAuthClientSecret } from "@/lib/openid";

/**
 * The OAuth clients page's mutations: admins and owners of the tenant only. The domain audits them
 * (`oauth.client.created|deleted|secret_rotated`) with the operator as actor and fires their webhooks.
 */

const page = (tenantId: string) => `/console/tenants/${tenantId}/oauth-clients`;
const ClientId = z.string({ error: "unknown client" }).min(1, "unknown client").max(128, "unknown client");

const SCOPES = ["openid", "email", "profile", "offline_access"] as const;

const CreateClientForm = z.object({
  name: z.string({ error: "enter a name" }).trim().min(1, "enter a name").max(200, "at most 200 characters"),
  redirectUris: z
    .array(z.string().trim().min(1, "enter a URL").max(2048, "at most 2048 characters"), {
      error: "enter at least one redirect URI",
    })
    .min(1, "enter at least one redirect URI")
    .max(20, "at most 20 redirect URIs"),
  scopes: z.array(z.enum(SCOPES, { error: "unknown scope" })).min(1, "choose at least one scope"),
  public: z.boolean({ error: "must be yes or no" }),
  firstParty: z.boolean({ error: "must be yes or no" }),
});

/** Creates a client; a confidential client's secret is in the answer once and nowhere else. */
export async function createClientAction(tenantId: string, input: unknown) {
  return consoleAction("write", tenantId, async (session) => {
    const form = CreateClientForm.parse(input);
    const scopes = form.scopes.includes("openid") ? form.scopes : ["openid", ...form.scopes];
    const { client, secret } = await createOAuthClient(
      tenantId,
      {
        client_name: form.name,
        redirect_uris: form.redirectUris,
        scope: scopes.join(" "),
        grant_types: scopes.includes("offline_access")
          ? ["authorization_code", "refresh_token"]
          : ["authorization_code"],
        token_endpoint_auth_method: form.public ? "none" : "client_secret_basic",
        first_party: form.firstParty,
      },
      session.context,
    );
    revalidatePath(page(tenantId));
    return { clientId: client.clientId, secret };
  });
}

export async function deleteClientAction(tenantId: string, clientId: unknown) {
  return consoleAction("write", tenantId, async (session) => {
    const id = ClientId.parse(clientId);
    await deleteOAuthClient(tenantId, id, session.context);
    revalidatePath(page(tenantId));
    return { clientId: id };
  });
}

/** A new secret for a confidential client, shown once; the old one stops working at once. */
export async function rotateClientSecretAction(tenantId: string, clientId: unknown) {
  return consoleAction("write", tenantId, async (session) => {
    const { client, secret } = await rotateOAuthClientSecret(
      tenantId,
      ClientId.parse(clientId),
      session.context,
    );
    return { clientId: client.clientId, secret };
  });
}
