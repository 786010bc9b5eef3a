import { recordAuditEvent } from "@/lib/audit";
import type { ActionDefinition } from "@/lib/flows/definition";
import { FlowError } from "@/lib/flows/errors";
import { MAX_OTP_FAILURES, checkOtpCode } from "@/lib/mfa";
import { OTP_CODE_INPUT } from "@/lib/flows/shared/inputs";
import { notifySecondFactorFailures } from "@/lib/mfa/notify";
import { factorsDone } from "../factors";
import { limitAttempts } from "../limit-attempts";
import { identifiedUser, mfaOf } from "../stash";

export const otpCodeValidate: ActionDefinition = {
  description: "Validates the provided code.",
  inputs: [OTP_CODE_INPUT],
  available: (ctx) => mfaOf(ctx).totp,
  async run(ctx, input) {
    const user = await identifiedUser(ctx);
    await limitAttempts(ctx, user);
    const check = await checkOtpCode(ctx.tenant, user.id, String(input.otp_code));
    const { result } = check;
    await recordAuditEvent(ctx.tenant.id, {
      ...ctx.audit,
      actor: user.id,
      type: `otp.check.${result === "ok" ? "succeeded" : "failed"}`,
      details: { userId: user.id, result, flowId: ctx.flowId },
    });
    if (check.result === "locked") {
      // A run of wrong codes locked the app for a while: no code is checked, the login starts over.
      throw new FlowError(
        "rate_limit_exceeded",
        `Too many wrong codes: the authenticator app is locked for ${check.secondsLeft} seconds; sign in again later`,
        { restartAt: "login_init", retryAfterSeconds: check.secondsLeft },
      );
    }
    if (check.result === "invalid" && check.locked) {
      // Guessing costs the first factor again and a growing wait; the user is told (once per lock).
      await notifySecondFactorFailures(ctx.tenant, user.id, check.failures, { ...ctx.audit, actor: user.id });
      throw new FlowError(
        "operation_not_permitted_error",
        `Too many wrong codes (${MAX_OTP_FAILURES} in a row): sign in again later. The account's owner was notified by email.`,
        { restartAt: "login_init" },
      );
    }
    if (result === "used") {
      throw new FlowError("otp_code_already_used", "The code was used already: wait for the next one", {
        input: "otp_code",
      });
    }
    if (result !== "ok")
      throw new FlowError("otp_code_invalid", "The code is invalid", { input: "otp_code" });
    return factorsDone(ctx, user, "totp");
  },
};
