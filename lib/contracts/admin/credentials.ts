import { z } from "zod";
import { defineContract } from "@/lib/contracts/contract";
import { AdminWebauthnCredential } from "@/lib/wire/credentials";
import { CredentialIdParam } from "../passkey/schemas";
import { TenantIdParam, platformErrors } from "../schemas";
import { UserIdParam } from "./params";

const json = <S extends z.ZodType>(description: string, schema: S) => ({
  description,
  content: { "application/json": { schema } },
});

const userParams = z.object({ tenantId: TenantIdParam, userId: UserIdParam });
const credentialParams = userParams.extend({ credentialId: CredentialIdParam });

const credentials = {
  surface: "admin",
  auth: { kind: "admin-key" },
  loadsTenant: true,
  tags: ["WebAuthn credentials"] as string[],
} as const;

export const adminListCredentials = defineContract({
  ...credentials,
  method: "GET",
  path: "/t/{tenantId}/admin/users/{userId}/webauthn_credentials",
  operationId: "adminListWebauthnCredentials",
  summary: "A user's WebAuthn credentials",
  description: "Passkeys and MFA security keys (`mfa_only`), oldest first. An unknown user is 404.",
  params: userParams,
  responses: {
    "200": json("The credentials", z.array(AdminWebauthnCredential)),
    ...platformErrors(400, 401, 404, 500),
  },
});

export const adminGetCredential = defineContract({
  ...credentials,
  method: "GET",
  path: "/t/{tenantId}/admin/users/{userId}/webauthn_credentials/{credentialId}",
  operationId: "adminGetWebauthnCredential",
  summary: "One of a user's WebAuthn credentials",
  description: "Another user's credential is 404.",
  params: credentialParams,
  responses: {
    "200": json("The credential", AdminWebauthnCredential),
    ...platformErrors(400, 401, 404, 500),
  },
});

export const adminDeleteCredential = defineContract({
  ...credentials,
  method: "DELETE",
  path: "/t/{tenantId}/admin/users/{userId}/webauthn_credentials/{credentialId}",
  operationId: "adminDeleteWebauthnCredential",
  summary: "Delete one of a user's WebAuthn credentials",
  description: "It can no longer finish any ceremony, including one already started.",
  params: credentialParams,
  responses: { "204": { description: "Deleted" }, ...platformErrors(400, 401, 404, 500) },
});
