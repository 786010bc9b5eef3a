import { verifyPasscodeAction } from "@/lib/flows/shared/actions/verify_passcode";
import { firstFactorDone } from "../factors";
import { KEY, identifiedUser } from "../stash";
import { verifyAddress } from "../verify-address";

/** The login code proves the first factor (and, for a recovery, that the password may be reset). */
export const verifyPasscode = verifyPasscodeAction(async (ctx, checked) => {
  const user = await identifiedUser(ctx);
  if (checked.userId !== user.id) throw new Error("the passcode was sent for another user");
  await verifyAddress(ctx, user, checked.emailId);
  if (ctx.stash[KEY.recovery] === "requested") ctx.stash[KEY.recovery] = "verified";
  return firstFactorDone(ctx, user, "passcode");
});
