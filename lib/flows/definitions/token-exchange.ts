import { exchangeOneTimeToken } from "@/lib/one-time-tokens";
import { AppError } from "@/lib/errors";
import { findUser } from "@/lib/users";
import { defineFlow } from "../definition";
import { FlowError } from "../errors";
import { STASH, successState } from "./shared";

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
    exchange_token: {
      description: "Exchange a one-time token for a session.",
      inputs: [
        { name: "token", type: "string", required: true, hidden: true, maxLength: 128 },
        { name: "code_verifier", type: "string", hidden: true, maxLength: 128 },
      ],
      async run(ctx, input) {
        try {
          const { user_id, session } = await exchangeOneTimeToken(ctx.tenant, String(input.token), ctx.audit);
          const user = await findUser(ctx.tenant.id, user_id);
          if (!user) throw new FlowError("not_found", "Token not found");
          ctx.issued = session;
          ctx.stash[STASH.successUser] = user.id;
          ctx.stash[STASH.lastLogin] = { login_method: "third_party" };
          return { to: "success" };
        } catch (error) {
          if (error instanceof FlowError || !(error instanceof AppError) || error.status >= 500) throw error;
          // Unknown, used and expired tokens alike: the token input is wrong.
          throw new FlowError("value_invalid_error", "The token is invalid or has expired", {
            input: "token",
            cause: error,
          });
        }
      },
    },
  },
});
