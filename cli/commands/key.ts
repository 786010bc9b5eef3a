import { API_KEY_SCOPES, createApiKey, listApiKeys, revokeApiKey, type ApiKeyScope } from "@/lib/api-keys";
import { recordAuditEvent } from "@/lib/audit";
import { printJson, printTable, UsageError } from "../output";
import type { Command } from "./command";

function tenantOf(values: Record<string, unknown>): string {
  if (typeof values.tenant !== "string") throw new UsageError("--tenant <tenant-id> is required");
  return values.tenant;
}

export const keyCreate: Command = {
  name: "key create",
  usage: `key create --tenant <tenant-id> --scope <${API_KEY_SCOPES.join("|")}>... [--name <name>] [--json]`,
  description: "Create an API key; it is printed once and only its SHA-256 is stored.",
  options: {
    tenant: { type: "string" },
    scope: { type: "string", multiple: true },
    name: { type: "string" },
  },
  async run({ values, json }) {
    const tenantId = tenantOf(values);
    const scopes = Array.isArray(values.scope) ? values.scope : [];
    if (scopes.length === 0) throw new UsageError("at least one --scope is required");
    const { key, secret } = await createApiKey(tenantId, {
      name: typeof values.name === "string" ? values.name : `${scopes.join("+")} key`,
      scopes: scopes as ApiKeyScope[],
    });
    await recordAuditEvent(key.tenantId, {
      type: "api_key.created",
      actor: "cli",
      details: { keyId: key.id, scopes: key.scopes },
    });
    if (json) return printJson({ key, secret });
    process.stdout.write(
      `Created key ${key.id} (${key.scopes.join(", ")}). Store it now, it is not shown again:\n${secret}\n`,
    );
  },
};

export const keyList: Command = {
  name: "key list",
  usage: "key list --tenant <tenant-id> [--json]",
  description: "List a tenant's API keys (prefixes only).",
  options: { tenant: { type: "string" } },
  async run({ values, json }) {
    const keys = await listApiKeys(tenantOf(values));
    if (json) return printJson({ keys });
    printTable(
      keys.map((k) => ({
        id: k.id,
        name: k.name,
        prefix: `${k.prefix}…`,
        scopes: k.scopes,
        lastUsed: k.lastUsedAt ?? "never",
        revoked: k.revokedAt ?? "",
      })),
    );
  },
};

export const keyRevoke: Command = {
  name: "key revoke",
  usage: "key revoke --tenant <tenant-id> <key-id> [--json]",
  description: "Revoke an API key; it stops working at once on every instance.",
  options: { tenant: { type: "string" } },
  async run({ values, positionals, json }) {
    const tenantId = tenantOf(values);
    const [keyId] = positionals;
    if (!keyId) throw new UsageError("the key id is required");
    const key = await revokeApiKey(tenantId, keyId);
    await recordAuditEvent(key.tenantId, {
      type: "api_key.revoked",
      actor: "cli",
      details: { keyId: key.id },
    });
    if (json) return printJson({ key });
    process.stdout.write(`Revoked key ${key.id}\n`);
  },
};
