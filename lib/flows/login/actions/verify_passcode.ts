import { verifyEmail } from "@/lib/accounts";
import { verifyPasscodeAction } from "@/lib/flows/shared/actions/verify_passcode";
import { firstFactorDone } from "../factors";
import { KEY, identifiedUser } from "../stash";

/**
 * The login code proves the first factor (and, for a recovery, that the password may be reset). A code
 * mailed to an address proves it (Hanko's login hook): without a session, the account's first proven
 * address removes what was set up before it (`verifyEmail`).
 */
export const verifyPasscode = verifyPasscodeAction(async (ctx, checked) => {
  const user = await identifiedUser(ctx);
  if (checked.userId !== user.id) throw new Error("the passcode was sent for another user");
  if (checked.emailId) {
    await verifyEmail(ctx.tenant, user.id, checked.emailId, {
      context: ctx.audit,
      withSession: false,
      details: { flowId: ctx.flowId },
    });
  }
  if (ctx.stash[KEY.recovery] === "requested") ctx.stash[KEY.recovery] = "verified";
  return firstFactorDone(ctx, user, "passcode");
});
