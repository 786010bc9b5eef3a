import { defineFlow } from "@/lib/flows/definition";
import { successState } from "@/lib/flows/shared/states/success";
import { exchangeToken } from "./actions/exchange_token";

/**
 * `token_exchange`: a one-time token (third-party or SAML login, minted by Sesame) for a session. The
 * elements start it for an IdP-initiated SAML login and run `exchange_token` with `?hanko_token=`.
 */
export const tokenExchangeFlow = defineFlow({
  name: "token_exchange",
  ttlSeconds: 10 * 60,
  initialState: "thirdparty",
  states: {
    thirdparty: { actions: ["exchange_token"] },
    success: successState,
  },
  actions: {
    exchange_token: exchangeToken,
  },
});
