import { findUser } from "@/lib/users";
import type { FlowContext } from "@/lib/flows/definition";
import { successPayload, type LastLogin } from "@/lib/flows/payloads";
import { STASH } from "../stash";

/** `success`: the user and the session's claims (`signIn` led here). */
export const successState = {
  actions: [] as readonly never[],
  async enter(ctx: FlowContext) {
    const userId = ctx.stash[STASH.successUser];
    // The user the step signed in, as it loaded them; else (never on the way a session was issued) read.
    const user =
      ctx.issuedTo?.id === userId
        ? ctx.issuedTo
        : typeof userId === "string"
          ? await findUser(ctx.tenant.id, userId)
          : undefined;
    if (!user || !ctx.issued) throw new Error("flow success: entered without a session");
    return successPayload(ctx.tenant, user, ctx.issued, ctx.stash[STASH.lastLogin] as LastLogin | undefined);
  },
};
