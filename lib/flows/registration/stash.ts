import type { FlowContext } from "@/lib/flows/definition";

/** What the flow collects on its way; nothing is written to users, emails or credentials before `success`. */
export const KEY = {
  /** Generated at `register_login_identifier`: the user row's id and the passkey's user handle. */
  userId: "user_id",
  email: "email",
  username: "username",
  /** The address a passcode of this flow proved. */
  verifiedEmail: "verified_email",
  /** The challenge of this flow's passkey ceremony: only its attestation is accepted. */
  challenge: "webauthn_challenge",
} as const;

export const text = (ctx: FlowContext, key: string): string | undefined => {
  const value = ctx.stash[key];
  return typeof value === "string" ? value : undefined;
};

export const previousState = (ctx: FlowContext) => ctx.history.at(-1);

export const emailVerified = (ctx: FlowContext) =>
  text(ctx, KEY.email) !== undefined && text(ctx, KEY.verifiedEmail) === text(ctx, KEY.email);
