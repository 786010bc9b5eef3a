import { z } from "zod";
import { defineContract } from "@/lib/contracts/contract";
import { platformErrors } from "../schemas";
import { tenantParams } from "./common";

const thirdParty = {
  surface: "public",
  loadsTenant: true,
  auth: { kind: "none" },
  tags: ["Third party"] as string[],
  rateLimit: "thirdparty",
} as const;

const RedirectTo = z
  .string()
  .min(1)
  .max(2048)
  .meta({
    description:
      "Where the browser returns: with `hanko_token` (a one-time token for `POST /token` or the token " +
      "exchange flow) after a sign-in, or with `error` and `error_description`. One of the tenant's allowed " +
      "origins or the provider's allowed redirect URLs.",
  });

const ProviderSlug = z
  .string()
  .min(1)
  .max(63)
  .meta({ description: "The provider's name (`google`, `custom-acme`)" });

const redirectResponse = (description: string) => ({
  description,
  headers: z.object({ Location: z.string(), "Set-Cookie": z.string().optional() }),
});

export const startThirdParty = defineContract({
  ...thirdParty,
  method: "GET",
  path: "/t/{tenantId}/thirdparty/{provider}",
  operationId: "startThirdParty",
  summary: "Start a sign-in with a third-party provider",
  description:
    "Sets an HttpOnly cookie binding the sign-in to this browser and redirects to the provider " +
    "(authorization code with PKCE, `state`, and `nonce` for OpenID Connect).",
  params: tenantParams.extend({ provider: ProviderSlug }),
  query: z.object({ redirect_to: RedirectTo }),
  responses: {
    "302": redirectResponse("To the provider's authorization endpoint"),
    ...platformErrors(400, 404, 500),
  },
});

export const startThirdPartyAuth = defineContract({
  ...thirdParty,
  method: "GET",
  path: "/t/{tenantId}/thirdparty/auth",
  operationId: "startThirdPartyAuth",
  summary: "Start a sign-in with a third-party provider (provider in the query)",
  // The flows start third-party sign-ins with their `thirdparty_oauth` action (as Hanko's v2 API does).
  deprecated: { successor: "/t/{tenantId}/login" },
  params: tenantParams,
  query: z.object({ provider: ProviderSlug, redirect_to: RedirectTo }),
  responses: {
    "302": redirectResponse("To the provider's authorization endpoint"),
    ...platformErrors(400, 404, 500),
  },
});

/** The provider's answer: the callback's query, or its form post (Apple). */
export const CallbackFields = z
  .object({
    state: z.string().max(512).optional(),
    code: z.string().max(4096).optional(),
    error: z.string().max(512).optional(),
    error_description: z.string().max(4096).optional(),
  })
  .loose();

const callback = {
  ...thirdParty,
  path: "/t/{tenantId}/thirdparty/callback",
  params: tenantParams,
  description:
    "The redirect URL to register at the provider. Consumes the `state` (single use, this browser's), " +
    "exchanges the code and redirects to `redirect_to` with `hanko_token`, or with Hanko's `error` " +
    "(`access_denied`, `invalid_request`, `unverified_email`, `missing_email`, `user_conflict`, " +
    "`signup_disabled`, `server_error`) and `error_description`. An unknown or used `state` is a 400 " +
    "(there is nowhere safe to redirect).",
  responses: {
    "302": redirectResponse("To `redirect_to`, with `hanko_token` or `error`"),
    ...platformErrors(400, 404, 413, 415, 500),
  },
} as const;

export const thirdPartyCallback = defineContract({
  ...callback,
  method: "GET",
  operationId: "thirdPartyCallback",
  summary: "The provider's answer",
  query: CallbackFields,
});

export const thirdPartyCallbackPost = defineContract({
  ...callback,
  method: "POST",
  operationId: "thirdPartyCallbackPost",
  summary: "The provider's answer as a form post (Apple's `response_mode=form_post`)",
});
