import { z } from "zod";
import { defineContract } from "@/lib/contracts/contract";
import { platformErrors } from "../schemas";
import { jsonResponse, publicRoute } from "./common";

export const TokenExchangeResult = z
  .object({ user_id: z.string().meta({ description: "The user the session is for" }) })
  .meta({ id: "TokenExchangeResult" });

export const exchangeToken = defineContract({
  ...publicRoute,
  method: "POST",
  path: "/t/{tenantId}/token",
  operationId: "exchangeToken",
  summary: "Exchange a one-time token for a session",
  description:
    "Hanko 2.x's token exchange after a third-party or SAML login: the `value` of a one-time token (single use, 60 seconds by default) becomes a session, in the headers like every login. Only in the browser that started the sign-in: the request must carry that start's binding cookie (`sesame_thirdparty` or `sesame_saml`, `__Host-` prefixed on https). 404 `token not found` for an unknown or used token, or one of a sign-in another browser started (the token stays for that browser), 422 `token has expired`. Deprecated: use the token_exchange flow.",
  tags: ["Sessions"],
  auth: { kind: "none" },
  rateLimit: "token",
  deprecated: { successor: "/t/{tenantId}/token_exchange" },
  body: z.object({ value: z.string().min(1, "is required").max(256, "must be at most 256 characters") }),
  responses: {
    "200": jsonResponse("Logged in; the session comes in the headers", TokenExchangeResult),
    ...platformErrors(400, 404, 413, 415, 422, 500),
  },
});
