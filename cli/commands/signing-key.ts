import { recordAuditEvent } from "@/lib/audit";
import { SIGNING_ALGORITHMS, type SigningAlgorithm } from "@/lib/settings/schemas";
import { getJwks, getTenant, rotateSigningKey } from "@/lib/tenants";
import { printJson, printTable, UsageError } from "../output";
import type { Command } from "./command";

function tenantOf(values: Record<string, unknown>): string {
  if (typeof values.tenant !== "string") throw new UsageError("--tenant <tenant-id> is required");
  return values.tenant;
}

export const signingKeyRotate: Command = {
  name: "signing-key rotate",
  usage: `signing-key rotate --tenant <tenant-id> [--algorithm ${SIGNING_ALGORITHMS.join("|")}] [--json]`,
  description: "Make a new key the tenant's JWT signing key; earlier keys stay published in the JWKS.",
  options: { tenant: { type: "string" }, algorithm: { type: "string" } },
  async run({ values, json }) {
    const algorithm = values.algorithm as SigningAlgorithm | undefined;
    if (algorithm !== undefined && !SIGNING_ALGORITHMS.includes(algorithm)) {
      throw new UsageError(`--algorithm must be one of ${SIGNING_ALGORITHMS.join(", ")}`);
    }
    const key = await rotateSigningKey(tenantOf(values), algorithm);
    await recordAuditEvent(key.tenantId, {
      type: "signing_key.rotated",
      actor: "cli",
      details: { kid: key.id, algorithm: key.algorithm },
    });
    if (json) return printJson({ kid: key.id, algorithm: key.algorithm });
    process.stdout.write(`New signing key ${key.id} (${key.algorithm}) is active\n`);
  },
};

export const signingKeyList: Command = {
  name: "signing-key list",
  usage: "signing-key list --tenant <tenant-id> [--json]",
  description: "Show the tenant's published public keys (its JWKS), newest first.",
  options: { tenant: { type: "string" } },
  async run({ values, json }) {
    const tenant = await getTenant(tenantOf(values));
    const jwks = await getJwks(tenant.id);
    if (json) return printJson(jwks);
    printTable(jwks.keys.map((k) => ({ kid: k.kid, alg: k.alg, kty: k.kty })));
  },
};
