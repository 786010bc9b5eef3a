import { recordAuditEvent } from "@/lib/audit";
import type { ActionDefinition } from "@/lib/flows/definition";
import { FlowError, flowErrors } from "@/lib/flows/errors";
import { checkOtpCode, otpCodeMatches, saveOtpSecret } from "@/lib/mfa";
import { OTP_CODE_INPUT } from "@/lib/flows/shared/inputs";
import { profileOf } from "../profile";
import { otpSetupOf } from "../stash";

export const otpCodeVerify: ActionDefinition = {
  description: "Confirm the authenticator app with a code it shows.",
  inputs: [OTP_CODE_INPUT],
  async run(ctx, input) {
    const setup = otpSetupOf(ctx);
    if (!setup) throw flowErrors.notPermitted("no authenticator app is being set up");
    const code = String(input.otp_code);
    if (!otpCodeMatches(ctx.tenant, setup.secret, code)) {
      throw new FlowError("otp_code_invalid", "The code is invalid", { input: "otp_code" });
    }
    const { user } = await profileOf(ctx);
    await saveOtpSecret(ctx.tenant, user.id, setup.secret);
    // The set-up code counts as used: it cannot log in a second time.
    await checkOtpCode(ctx.tenant, user.id, code);
    await recordAuditEvent(ctx.tenant.id, {
      ...ctx.audit,
      type: "otp_secret.created",
      details: { userId: user.id },
    });
    return { to: "profile_init" };
  },
};
