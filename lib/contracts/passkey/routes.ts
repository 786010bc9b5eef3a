import { z } from "zod";
import { AuthenticationResponse, RegistrationResponse } from "@/lib/ceremonies/webauthn/responses";
import { defineContract } from "@/lib/contracts/contract";
import { TenantIdParam } from "../schemas";
import {
  CreationOptions,
  CredentialDto,
  CredentialIdParam,
  Jwks,
  RegistrationInit,
  RequestOptions,
  TokenResponse,
  TransactionDto,
  UserId,
  passkeyErrors,
} from "./schemas";

const tenantParams = z.object({ tenantId: TenantIdParam });
const json = <S extends z.ZodType>(description: string, schema: S) => ({
  description,
  content: { "application/json": { schema } },
});

const common = { surface: "passkey", method: "POST", loadsTenant: true, params: tenantParams } as const;

export const registrationInitialize = defineContract({
  ...common,
  path: "/{tenantId}/registration/initialize",
  operationId: "initializeRegistration",
  summary: "Initialize a passkey registration",
  description:
    "Creates or updates the user and returns creation options. `excludeCredentials` lists the user's credentials.",
  tags: ["Registration"],
  auth: { kind: "passkey-key" },
  body: RegistrationInit,
  responses: { "200": json("Creation options", CreationOptions), ...passkeyErrors(400, 401, 404, 500) },
});

export const registrationFinalize = defineContract({
  ...common,
  path: "/{tenantId}/registration/finalize",
  operationId: "finalizeRegistration",
  summary: "Finalize a passkey registration",
  description: "Called from the browser; the stored challenge binds it, no API key. Returns a token.",
  tags: ["Registration"],
  auth: { kind: "none" },
  cors: "tenant-origins",
  body: RegistrationResponse,
  responses: { "200": json("Registered", TokenResponse), ...passkeyErrors(400, 404, 500) },
});

export const loginInitialize = defineContract({
  ...common,
  path: "/{tenantId}/login/initialize",
  operationId: "initializeLogin",
  summary: "Initialize a passkey login",
  description:
    "An empty body starts a discoverable login (no API key needed). With `user_id` the API key is required and `allowCredentials` lists that user's passkeys.",
  tags: ["Login"],
  auth: { kind: "none" },
  cors: "tenant-origins",
  emptyBodyAs: "empty-object",
  body: z.object({ user_id: UserId.optional() }),
  responses: { "200": json("Request options", RequestOptions), ...passkeyErrors(400, 401, 404, 500) },
});

export const loginFinalize = defineContract({
  ...common,
  path: "/{tenantId}/login/finalize",
  operationId: "finalizeLogin",
  summary: "Finalize a passkey login",
  description: "Called from the browser; no API key (one sent is ignored). Returns a token.",
  tags: ["Login"],
  auth: { kind: "none" },
  cors: "tenant-origins",
  body: AuthenticationResponse,
  responses: { "200": json("Logged in", TokenResponse), ...passkeyErrors(400, 401, 404, 500) },
});

export const mfaRegistrationInitialize = defineContract({
  ...registrationInitialize,
  path: "/{tenantId}/mfa/registration/initialize",
  operationId: "initializeMfaRegistration",
  summary: "Initialize an MFA key registration",
  description:
    "Like passkey registration, with the tenant's MFA settings (by default a roaming security key).",
  tags: ["MFA"],
});

export const mfaRegistrationFinalize = defineContract({
  ...registrationFinalize,
  path: "/{tenantId}/mfa/registration/finalize",
  operationId: "finalizeMfaRegistration",
  summary: "Finalize an MFA key registration",
  description: "Stores the credential as an MFA key: usable for MFA login only.",
  tags: ["MFA"],
  auth: { kind: "passkey-key" },
  cors: undefined,
  responses: { "200": json("Registered", TokenResponse), ...passkeyErrors(400, 401, 404, 500) },
});

export const mfaLoginInitialize = defineContract({
  ...common,
  path: "/{tenantId}/mfa/login/initialize",
  operationId: "initializeMfaLogin",
  summary: "Initialize an MFA login",
  description: "`allowCredentials` lists the user's MFA keys; passkeys are not accepted.",
  tags: ["MFA"],
  auth: { kind: "passkey-key" },
  body: z.object({ user_id: UserId }),
  responses: { "200": json("Request options", RequestOptions), ...passkeyErrors(400, 401, 404, 500) },
});

export const mfaLoginFinalize = defineContract({
  ...loginFinalize,
  path: "/{tenantId}/mfa/login/finalize",
  operationId: "finalizeMfaLogin",
  summary: "Finalize an MFA login",
  description: "Verifies an MFA key's assertion for the user the ceremony was started for. Returns a token.",
  tags: ["MFA"],
  auth: { kind: "passkey-key" },
  cors: undefined,
});

export const transactionInitialize = defineContract({
  ...common,
  path: "/{tenantId}/transaction/initialize",
  operationId: "initializeTransaction",
  summary: "Initialize a transaction",
  description:
    "The challenge is 32 random bytes followed by SHA-256(transaction_id ‖ canonical JSON of transaction_data). A transaction_id is used once per user (409).",
  tags: ["Transactions"],
  auth: { kind: "passkey-key" },
  body: z.object({
    user_id: UserId,
    transaction_id: z.string().min(1, "is required").max(128, "must be at most 128 characters"),
    transaction_data: z
      .json()
      .refine((value) => value !== null, "is required")
      .meta({ description: "Any JSON value describing what the user approves" }),
  }),
  responses: { "200": json("Request options", RequestOptions), ...passkeyErrors(400, 401, 404, 409, 500) },
});

export const transactionFinalize = defineContract({
  ...common,
  path: "/{tenantId}/transaction/finalize",
  operationId: "finalizeTransaction",
  summary: "Finalize a transaction",
  description: "Returns a token whose `trans` claim is the transaction id.",
  tags: ["Transactions"],
  auth: { kind: "passkey-key" },
  body: AuthenticationResponse,
  responses: { "200": json("Signed", TokenResponse), ...passkeyErrors(400, 401, 404, 500) },
});

export const transactionList = defineContract({
  surface: "passkey",
  method: "GET",
  loadsTenant: true,
  path: "/{tenantId}/transaction/{userId}",
  operationId: "listTransactions",
  summary: "List a user's transactions",
  description: "Oldest first. `userId` is your user_id (Hanko's internal user UUID is accepted as well).",
  tags: ["Transactions"],
  auth: { kind: "passkey-key" },
  params: tenantParams.extend({ userId: UserId }),
  responses: { "200": json("Transactions", z.array(TransactionDto)), ...passkeyErrors(400, 401, 404, 500) },
});

export const credentialList = defineContract({
  surface: "passkey",
  method: "GET",
  loadsTenant: true,
  path: "/{tenantId}/credentials",
  operationId: "listCredentials",
  summary: "List a user's credentials",
  description: "Passkeys and MFA keys, oldest first; an unknown user has none.",
  tags: ["Credentials"],
  auth: { kind: "passkey-key" },
  params: tenantParams,
  query: z.object({ user_id: UserId }),
  responses: { "200": json("Credentials", z.array(CredentialDto)), ...passkeyErrors(400, 401, 404, 500) },
});

const credentialParams = tenantParams.extend({ credentialId: CredentialIdParam });

export const credentialGet = defineContract({
  surface: "passkey",
  method: "GET",
  loadsTenant: true,
  path: "/{tenantId}/credentials/{credentialId}",
  operationId: "getCredential",
  summary: "Get a credential",
  tags: ["Credentials"],
  auth: { kind: "passkey-key" },
  params: credentialParams,
  responses: { "200": json("The credential", CredentialDto), ...passkeyErrors(400, 401, 404, 500) },
});

export const credentialUpdate = defineContract({
  ...credentialGet,
  method: "PATCH",
  operationId: "updateCredential",
  summary: "Rename a credential",
  description: "The name is a display label only.",
  body: z.object({
    name: z.string().trim().min(1, "is required").max(255, "must be at most 255 characters"),
  }),
  responses: { "204": { description: "Renamed" }, ...passkeyErrors(400, 401, 404, 500) },
});

export const credentialDelete = defineContract({
  ...credentialGet,
  method: "DELETE",
  operationId: "deleteCredential",
  summary: "Delete a credential",
  responses: { "204": { description: "Deleted" }, ...passkeyErrors(400, 401, 404, 500) },
});

export const jwks = defineContract({
  surface: "passkey",
  method: "GET",
  loadsTenant: true,
  path: "/{tenantId}/.well-known/jwks.json",
  operationId: "getJwks",
  summary: "The tenant's public signing keys",
  description:
    "Public and cacheable (10 minutes). Verify finalize tokens with it. Also at `/.well-known/jwks`.",
  tags: ["Keys"],
  auth: { kind: "none" },
  cors: "any",
  params: tenantParams,
  responses: {
    "200": { ...json("JSON Web Key Set", Jwks), headers: z.object({ "cache-control": z.string() }) },
    ...passkeyErrors(400, 404, 500),
  },
});
