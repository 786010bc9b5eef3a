import type { ActionDefinition } from "@/lib/flows/definition";
import { FlowError, type InputErrorRule } from "@/lib/flows/errors";
import { STASH } from "@/lib/flows/shared/stash";
import { browserProof } from "@/lib/flows/shared/thirdparty";
import { exchangeOneTimeToken } from "@/lib/one-time-tokens";
import { findUser } from "@/lib/users";

const TOKEN_INVALID: InputErrorRule = {
  input: "token",
  code: "value_invalid_error",
  message: "The token is invalid or has expired",
};

export const exchangeToken: ActionDefinition = {
  description: "Exchange a one-time token for a session.",
  inputs: [
    { name: "token", type: "string", required: true, hidden: true, maxLength: 128 },
    { name: "code_verifier", type: "string", hidden: true, maxLength: 128 },
  ],
  // Unknown, used and expired tokens alike: the token input is wrong.
  inputErrors: {
    TOKEN_NOT_FOUND: TOKEN_INVALID,
    TOKEN_EXPIRED: TOKEN_INVALID,
  },
  async run(ctx, input) {
    // Only in the browser that started the sign-in (its verifier or binding cookie): login CSRF.
    const { user_id, session } = await exchangeOneTimeToken(
      ctx.tenant,
      String(input.token),
      ctx.audit,
      browserProof(ctx, input),
    );
    const user = await findUser(ctx.tenant.id, user_id);
    if (!user) throw new FlowError("not_found", "Token not found");
    ctx.issued = session;
    ctx.stash[STASH.successUser] = user.id;
    ctx.stash[STASH.lastLogin] = { login_method: "third_party" };
    return { to: "success" };
  },
};
