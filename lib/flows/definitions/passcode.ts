import { AppError } from "@/lib/errors";
import { checkPasscode, sendCode, type CheckedPasscode, type CodeTarget } from "@/lib/passcodes";
import { consumeRateLimit } from "@/lib/rate-limit";
import type { ActionDefinition, FlowContext, Transition } from "../definition";
import { FlowError } from "../errors";

/** Seconds before the client offers to send another code (Hanko's `resend_after`). */
export const RESEND_AFTER_SECONDS = 30;

const STASH = {
  target: "passcode_target",
  id: "passcode_id",
  sentAt: "passcode_sent_at",
  resent: "passcode_resent",
};

/** Names the address (and user, address row, purpose) the next `passcode_confirmation` mails a code to. */
export function setPasscodeTarget(ctx: FlowContext, target: CodeTarget): void {
  ctx.stash[STASH.target] = target;
  ctx.stash[STASH.resent] = false;
}

export function passcodeTarget(ctx: FlowContext): CodeTarget {
  const target = ctx.stash[STASH.target] as CodeTarget | undefined;
  if (!target) throw new Error(`flow ${ctx.flowName}: passcode_confirmation without a target`);
  return target;
}

/** Mails a new code (counted against the tenant's `passcode` rate limit, per IP and per address). */
async function send(ctx: FlowContext): Promise<void> {
  const target = passcodeTarget(ctx);
  await consumeRateLimit(ctx.tenant, "passcode", {
    ip: ctx.audit.ip ?? null,
    sessionUserId: ctx.session?.user.id,
    body: { email: target.address },
    audit: ctx.audit,
  });
  const info = await sendCode(ctx.tenant, target, ctx.audit);
  ctx.stash[STASH.id] = info.id;
  ctx.stash[STASH.sentAt] = Date.parse(info.created_at);
}

/** A passcode failure as the elements know it. */
function flowErrorOf(error: unknown): unknown {
  if (!(error instanceof AppError) || error.status >= 500 || error instanceof FlowError) return error;
  if (error.code === "RATE_LIMITED") return error;
  const detail = error.details[0] ?? error.message;
  if (error.code === "PASSCODE_ATTEMPTS_EXCEEDED")
    return new FlowError("passcode_max_attempts_reached", "Maximum number of attempts reached");
  return new FlowError("passcode_invalid", `The passcode is invalid (${detail})`);
}

/**
 * The `passcode_confirmation` state of any flow: entering it mails a code to the target set with
 * `setPasscodeTarget`; `verify_passcode` checks it and hands over to `onVerified`; `resend_passcode`
 * mails a new one (not before `resend_after` seconds). Payload `{passcode_resent, resend_after}`.
 */
export function passcodeConfirmation(
  onVerified: (ctx: FlowContext, checked: CheckedPasscode) => Promise<Transition>,
) {
  const state = {
    actions: ["verify_passcode", "resend_passcode", "back"] as const,
    async enter(ctx: FlowContext) {
      try {
        await send(ctx);
      } catch (error) {
        throw flowErrorOf(error);
      }
      return { passcode_resent: ctx.stash[STASH.resent] === true, resend_after: RESEND_AFTER_SECONDS };
    },
  };
  const actions = {
    verify_passcode: {
      description: "Check the code from the email.",
      inputs: [{ name: "code", type: "string", required: true, minLength: 6, maxLength: 6 }],
      async run(ctx, input) {
        const id = ctx.stash[STASH.id];
        if (typeof id !== "string") throw new FlowError("passcode_invalid", "No passcode was sent");
        let checked: CheckedPasscode;
        try {
          checked = await checkPasscode(ctx.tenant, { id, code: String(input.code) }, ctx.audit);
        } catch (error) {
          throw flowErrorOf(error);
        }
        delete ctx.stash[STASH.id];
        return onVerified(ctx, checked);
      },
    },
    resend_passcode: {
      description: "Send a new code.",
      async run(ctx) {
        const sentAt = Number(ctx.stash[STASH.sentAt] ?? 0);
        const wait = Math.ceil((sentAt + RESEND_AFTER_SECONDS * 1000 - Date.now()) / 1000);
        if (wait > 0) {
          throw new FlowError("rate_limit_exceeded", `A new code can be sent in ${wait} seconds`, {
            retryAfterSeconds: wait,
          });
        }
        ctx.stash[STASH.resent] = true;
        // Re-entering the state mails the new code.
        return { stay: true };
      },
    },
  } satisfies Record<string, ActionDefinition>;
  return { state, actions };
}
