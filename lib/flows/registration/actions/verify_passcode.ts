import { FlowError } from "@/lib/flows/errors";
import { verifyPasscodeAction } from "@/lib/flows/shared/actions/verify_passcode";
import { credentialState } from "../credential-state";
import { finishWithoutCredential } from "../finish";
import { KEY, text } from "../stash";

/** After the address is proved: the credential step, or the account right away when there is none. */
export const verifyPasscode = verifyPasscodeAction(async (ctx, checked) => {
  if (checked.address !== text(ctx, KEY.email) || checked.purpose !== "email_verification") {
    throw new FlowError("passcode_invalid", "The passcode is invalid (it was not sent for this address)");
  }
  ctx.stash[KEY.verifiedEmail] = checked.address;
  const next = credentialState(ctx);
  return next ? { to: next } : finishWithoutCredential(ctx);
});
