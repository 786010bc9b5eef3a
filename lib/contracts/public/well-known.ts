import { z } from "zod";
import { defineContract } from "@/lib/contracts/contract";
import { platformErrors } from "../schemas";
import { jsonResponse, tenantParams } from "./common";

const Jwks = z
  .object({ keys: z.array(z.record(z.string(), z.unknown())) })
  .meta({ id: "JwkSet", description: "The tenant's public signing keys" });

const jwks = {
  surface: "public" as const,
  loadsTenant: true as const,
  cors: "any" as const,
  params: tenantParams,
  method: "GET" as const,
  tags: ["Configuration"] as string[],
  auth: { kind: "none" } as const,
  responses: { "200": jsonResponse("JWK Set", Jwks), ...platformErrors(404, 500) },
};

export const wellKnownJwksJson = defineContract({
  ...jwks,
  path: "/t/{tenantId}/.well-known/jwks.json",
  operationId: "getJwksJson",
  summary: "Public keys that sign session JWTs",
});

export const wellKnownJwks = defineContract({
  ...jwks,
  path: "/t/{tenantId}/.well-known/jwks",
  operationId: "getJwks",
  summary: "Public keys that sign session JWTs (the spec's path)",
});

export const PublicConfig = z
  .object({
    password: z.object({ enabled: z.boolean(), min_password_length: z.number().int() }),
    emails: z.object({ require_verification: z.boolean(), max_num_of_addresses: z.number().int() }),
    providers: z.array(z.string()),
    account: z.object({ allow_deletion: z.boolean(), allow_signup: z.boolean() }),
    use_enterprise: z.boolean(),
  })
  .meta({ id: "PublicConfig" });

export const wellKnownConfig = defineContract({
  surface: "public",
  loadsTenant: true,
  cors: "any",
  params: tenantParams,
  method: "GET",
  path: "/t/{tenantId}/.well-known/config",
  operationId: "getConfig",
  summary: "Public configuration",
  tags: ["Configuration"],
  auth: { kind: "none" },
  deprecated: { successor: "/t/{tenantId}/login" },
  responses: { "200": jsonResponse("What the tenant allows", PublicConfig), ...platformErrors(404, 500) },
});
