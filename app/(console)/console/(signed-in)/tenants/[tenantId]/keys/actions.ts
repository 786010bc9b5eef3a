"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { createApiKey, CreateApiKeyInput, revokeApiKey } from "@/lib/api-keys";
import { recordAuditEvent } from "@/lib/audit";
import { consoleAction } from "@/lib/console/guard";
import { rotateSigningKey } from "@/lib/tenants";

/**
 * The keys page's mutations: admins and owners of the tenant only (a viewer is refused here, whatever
 * the page showed). Audited as the CLI does (`api_key.created`, `api_key.revoked`,
 * `signing_key.rotated`), with the operator as actor.
 */

const KeyId = z.uuid({ error: "unknown key" });
const page = (tenantId: string) => `/console/tenants/${tenantId}/keys`;

/** Creates an API key; its secret is in the answer once and nowhere else. */
export async function createKey(tenantId: string, input: unknown) {
  return consoleAction("write", tenantId, async (session) => {
    const { key, secret } = await createApiKey(tenantId, CreateApiKeyInput.parse(input));
    await recordAuditEvent(key.tenantId, {
      ...session.context,
      type: "api_key.created",
      details: { keyId: key.id, scopes: key.scopes },
    });
    revalidatePath(page(tenantId));
    return { id: key.id, name: key.name, prefix: key.prefix, secret };
  });
}

export async function revokeKey(tenantId: string, keyId: string) {
  return consoleAction("write", tenantId, async (session) => {
    const key = await revokeApiKey(tenantId, KeyId.parse(keyId));
    await recordAuditEvent(key.tenantId, {
      ...session.context,
      type: "api_key.revoked",
      details: { keyId: key.id },
    });
    revalidatePath(page(tenantId));
    return { id: key.id };
  });
}

/** A new active signing key; the earlier ones stay in the JWKS. Only public data comes back. */
export async function rotateKey(tenantId: string) {
  return consoleAction("write", tenantId, async (session) => {
    const key = await rotateSigningKey(tenantId);
    await recordAuditEvent(key.tenantId, {
      ...session.context,
      type: "signing_key.rotated",
      details: { kid: key.id, algorithm: key.algorithm },
    });
    revalidatePath(page(tenantId));
    return { kid: key.id, algorithm: key.algorithm };
  });
}
