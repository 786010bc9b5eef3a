import type { ActionDefinition } from "@/lib/flows/definition";
import { browserProof } from "@/lib/flows/shared/thirdparty";
import { redeemOneTimeToken } from "@/lib/one-time-tokens";
import { profileOf } from "../profile";

/**
 * The profile's `exchange_token`: back from connecting a provider with `?hanko_token=`. The callback
 * linked the identity already; the token (the signed-in user's, else not valid) is taken back so it
 * cannot start a session later, and no new session starts.
 */
export const exchangeToken: ActionDefinition = {
  description: "Exchange a token for linking the identity to a user account.",
  inputs: [
    { name: "token", type: "string", required: true, hidden: true, maxLength: 128 },
    { name: "code_verifier", type: "string", hidden: true, maxLength: 128 },
  ],
  inputErrors: {
    TOKEN_NOT_FOUND: {
      input: "token",
      code: "value_invalid_error",
      message: "The token is invalid or has expired",
    },
    TOKEN_EXPIRED: {
      input: "token",
      code: "value_invalid_error",
      message: "The token is invalid or has expired",
    },
  },
  async run(ctx, input) {
    const { user } = await profileOf(ctx);
    await redeemOneTimeToken(ctx.tenant, String(input.token), user.id, ctx.audit, browserProof(ctx, input));
    return { to: "profile_init" };
  },
};
