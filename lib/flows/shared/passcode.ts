import { sendCode, type CodeTarget } from "@/lib/passcodes";
import { consumeRateLimit } from "@/lib/rate-limit";
import type { FlowContext } from "@/lib/flows/definition";

// The mailed code of any flow's `passcode_confirmation` (`states/passcode_confirmation.ts`): a flow
// names the target with `setPasscodeTarget` and leads there; entering mails the code, `verify_passcode`
// checks it, `resend_passcode` asks for another one.

/** Seconds before the client offers to send another code (Hanko's `resend_after`). */
export const RESEND_AFTER_SECONDS = 30;

export const PASSCODE_STASH = {
  target: "passcode_target",
  id: "passcode_id",
  sentAt: "passcode_sent_at",
  resent: "passcode_resent",
} as const;

/** Names the address (and user, address row, purpose) the next `passcode_confirmation` mails a code to. */
export function setPasscodeTarget(ctx: FlowContext, target: CodeTarget): void {
  ctx.stash[PASSCODE_STASH.target] = target;
  ctx.stash[PASSCODE_STASH.resent] = false;
}

function passcodeTarget(ctx: FlowContext): CodeTarget {
  const target = ctx.stash[PASSCODE_STASH.target] as CodeTarget | undefined;
  if (!target) throw new Error(`flow ${ctx.flowName}: passcode_confirmation without a target`);
  return target;
}

/**
 * Mails a new code, counted against the tenant's `passcode` rate limit per IP, and per user only for a
 * signed-in user (the profile): a count per address would let a stranger who knows it use up the
 * owner's allowance (docs/decisions.md, Security, issue 25).
 */
export async function sendPasscode(ctx: FlowContext): Promise<void> {
  const target = passcodeTarget(ctx);
  await consumeRateLimit(ctx.tenant, "passcode", {
    ip: ctx.audit.ip ?? null,
    sessionUserId: ctx.session?.user.id,
    audit: ctx.audit,
  });
  const info = await sendCode(ctx.tenant, target, ctx.audit);
  ctx.stash[PASSCODE_STASH.id] = info.id;
  ctx.stash[PASSCODE_STASH.sentAt] = info.createdAt.getTime();
}
