import type { FlowContext } from "@/lib/flows/definition";
import { otpSetupOf } from "../stash";

/** `mfa_otp_secret_creation`: the secret being set up, as text and as a QR code image. */
export async function enterMfaOtpSecretCreation(ctx: FlowContext) {
  const setup = otpSetupOf(ctx);
  return setup ? { otp_secret: setup.secret, otp_image_source: setup.image } : {};
}
