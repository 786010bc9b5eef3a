import { AppError } from "@/lib/errors";
import type { ActionDefinition } from "@/lib/flows/definition";
import { FlowError } from "@/lib/flows/errors";
import { STASH } from "@/lib/flows/shared/stash";
import { exchangeOneTimeToken } from "@/lib/one-time-tokens";
import { findUser } from "@/lib/users";

export const exchangeToken: ActionDefinition = {
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
};
