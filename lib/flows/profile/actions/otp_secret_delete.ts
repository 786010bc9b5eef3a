import { recordAuditEvent } from "@/lib/audit";
import type { ActionDefinition } from "@/lib/flows/definition";
import { removeOtpSecret } from "@/lib/mfa";
import { profileOf, when } from "../profile";

export const otpSecretDelete: ActionDefinition = {
  description: "Remove the authenticator app.",
  available: when((profile) => profile.otp),
  async run(ctx) {
    const { user } = await profileOf(ctx);
    if (await removeOtpSecret(ctx.tenant, user.id)) {
      await recordAuditEvent(ctx.tenant.id, {
        ...ctx.audit,
        type: "otp_secret.deleted",
        details: { userId: user.id },
      });
    }
    return { stay: true };
  },
};
