import { z } from "zod";
import { AuthenticationResponse, RegistrationResponse } from "@/lib/ceremonies/webauthn/responses";
import { defineContract } from "@/lib/contracts/contract";
import { CreationOptions, CredentialIdParam, RequestOptions } from "../passkey/schemas";
import { WebauthnCredential } from "@/lib/wire/credentials";
import { TenantIdParam, platformErrors } from "../schemas";
import { jsonResponse, publicRoute } from "./common";

export const WebauthnCeremonyResult = z
  .object({
    credential_id: z.string().meta({ description: "The credential id (base64url)" }),
    user_id: z.string().meta({ description: "The user's id" }),
  })
  .meta({ id: "WebauthnCeremonyResult" });

const webauthn = { ...publicRoute, tags: ["WebAuthn"] as string[] };
const toProfile = { successor: "/t/{tenantId}/profile" };
const toLogin = { successor: "/t/{tenantId}/login" };

export const webauthnRegistrationInitialize = defineContract({
  ...webauthn,
  method: "POST",
  path: "/t/{tenantId}/webauthn/registration/initialize",
  operationId: "webauthnRegistrationInitialize",
  summary: "Start adding a passkey to the signed-in user",
  description:
    "Creation options under the tenant's passkey policy; `excludeCredentials` lists the user's credentials. Deprecated: use the profile flow.",
  auth: { kind: "session" },
  deprecated: toProfile,
  responses: {
    "200": jsonResponse("Pass `publicKey` to navigator.credentials.create()", CreationOptions),
    ...platformErrors(401, 403, 404, 500),
  },
});

export const webauthnRegistrationFinalize = defineContract({
  ...webauthn,
  method: "POST",
  path: "/t/{tenantId}/webauthn/registration/finalize",
  operationId: "webauthnRegistrationFinalize",
  summary: "Store the signed-in user's new passkey",
  description: "The attestation of a registration the same user started. Deprecated: use the profile flow.",
  auth: { kind: "session" },
  deprecated: toProfile,
  body: RegistrationResponse,
  responses: {
    "200": jsonResponse("Registered", WebauthnCeremonyResult),
    ...platformErrors(400, 401, 403, 404, 413, 415, 500),
  },
});

export const webauthnLoginInitialize = defineContract({
  ...webauthn,
  method: "POST",
  path: "/t/{tenantId}/webauthn/login/initialize",
  operationId: "webauthnLoginInitialize",
  summary: "Start a passkey login",
  description:
    "An empty body starts a discoverable login. With `user_id`, `allowCredentials` lists that user's passkeys (a user without passkeys gets a discoverable login; an unknown user is a 400). Deprecated: use the login flow.",
  auth: { kind: "none" },
  deprecated: toLogin,
  emptyBodyAs: "empty-object",
  body: z.object({ user_id: z.uuid("must be a UUID").optional() }),
  responses: {
    "200": jsonResponse("Pass `publicKey` to navigator.credentials.get()", RequestOptions),
    ...platformErrors(400, 404, 413, 415, 500),
  },
});

export const webauthnLoginFinalize = defineContract({
  ...webauthn,
  method: "POST",
  path: "/t/{tenantId}/webauthn/login/finalize",
  operationId: "webauthnLoginFinalize",
  summary: "Finish a passkey login",
  description:
    'Verifies the assertion and starts a session (`amr: ["passkey"]`): the session cookie, or `X-Auth-Token` in cross-domain mode, with `X-Session-Lifetime` and `X-Session-Retention`. MFA-only keys are refused. Deprecated: use the login flow.',
  auth: { kind: "none" },
  deprecated: toLogin,
  body: AuthenticationResponse,
  responses: {
    "200": jsonResponse("Logged in; the session comes in the headers", WebauthnCeremonyResult),
    ...platformErrors(400, 401, 404, 413, 415, 500),
  },
});

export const webauthnCredentialsList = defineContract({
  ...webauthn,
  method: "GET",
  path: "/t/{tenantId}/webauthn/credentials",
  operationId: "webauthnCredentialsList",
  summary: "The signed-in user's credentials",
  description: "Passkeys and MFA keys, oldest first. Deprecated: use the profile flow.",
  auth: { kind: "session" },
  deprecated: toProfile,
  responses: {
    "200": jsonResponse("The credentials", z.array(WebauthnCredential)),
    ...platformErrors(401, 404, 500),
  },
});

const credentialParams = z.object({ tenantId: TenantIdParam, id: CredentialIdParam });

export const webauthnCredentialUpdate = defineContract({
  ...webauthn,
  method: "PATCH",
  path: "/t/{tenantId}/webauthn/credentials/{id}",
  operationId: "webauthnCredentialUpdate",
  summary: "Rename one of the signed-in user's credentials",
  description:
    "`name` is a display label only. Another user's or tenant's credential, or an unknown id, is 404 `{code: 404, message: \"Not found\"}`. 204. Deprecated: use the profile flow.",
  auth: { kind: "session" },
  deprecated: toProfile,
  params: credentialParams,
  body: z.object({
    name: z.string().trim().min(1, "is required").max(255, "must be at most 255 characters"),
  }),
  responses: {
    "204": { description: "Renamed" },
    ...platformErrors(400, 401, 403, 404, 413, 415, 500),
  },
});

export const webauthnCredentialDelete = defineContract({
  ...webauthn,
  method: "DELETE",
  path: "/t/{tenantId}/webauthn/credentials/{id}",
  operationId: "webauthnCredentialDelete",
  summary: "Delete one of the signed-in user's credentials",
  description:
    "Another user's or tenant's credential, or an unknown id, is 404 `Not found`. 204. Deprecated: use the profile flow.",
  auth: { kind: "session" },
  deprecated: toProfile,
  params: credentialParams,
  responses: { "204": { description: "Deleted" }, ...platformErrors(400, 401, 403, 404, 500) },
});
