import type { ActionDefinition } from "@/lib/flows/definition";
import { newOtpSecret } from "@/lib/mfa";
import { profileOf, when } from "../profile";
import { STASH, type OtpSetup } from "../stash";

export const continueToOtpSecretCreation: ActionDefinition = {
  description: "Set up an authenticator app.",
  available: when(
    (profile, tenant) => tenant.platform.mfa.enabled && tenant.platform.mfa.totp && !profile.otp,
  ),
  async run(ctx) {
    const { user, emails } = await profileOf(ctx);
    const label = user.username || emails.find((email) => email.isPrimary)?.address || user.id;
    const { secret, image } = await newOtpSecret(ctx.tenant, label);
    ctx.stash[STASH.otpSetup] = { secret, image } satisfies OtpSetup;
    return { to: "mfa_otp_secret_creation" };
  },
};
