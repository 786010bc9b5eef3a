import { flowErrors } from "@/lib/flows/errors";
import { verifyPasscodeAction } from "@/lib/flows/shared/actions/verify_passcode";
import { addVerifiedEmail, markVerified } from "../emails";
import { profileOf } from "../profile";

/** After `passcode_confirmation`: the new address is added, or the existing one verified. */
export const verifyPasscode = verifyPasscodeAction(async (ctx, checked) => {
  const { user } = await profileOf(ctx);
  if (checked.userId !== user.id) throw flowErrors.unauthorized();
  if (checked.emailId) await markVerified(ctx, user, checked.emailId);
  else await addVerifiedEmail(ctx, user, checked.address);
  return { to: "profile_init" };
});
