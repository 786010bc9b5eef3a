import type { FlowContext } from "@/lib/flows/definition";

/** Stash keys of the profile flow. */
export const STASH = {
  /** What `webauthn_credential_verification` registers: a passkey or a security key. */
  creating: "profile_creating",
  /** A TOTP secret shown for set-up, saved only once a code of it is verified. */
  otpSetup: "profile_otp_setup",
} as const;

export interface OtpSetup {
  secret: string;
  image: string;
}

export const otpSetupOf = (ctx: FlowContext) => ctx.stash[STASH.otpSetup] as OtpSetup | undefined;
