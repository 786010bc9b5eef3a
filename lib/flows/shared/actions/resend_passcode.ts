import type { ActionDefinition } from "@/lib/flows/definition";
import { FlowError } from "@/lib/flows/errors";
import { PASSCODE_STASH, RESEND_AFTER_SECONDS } from "../passcode";

/** `resend_passcode`: mails a new code (not before `resend_after` seconds) by entering the state again. */
export const resendPasscode: ActionDefinition = {
  description: "Send a new code.",
  async run(ctx) {
    const sentAt = Number(ctx.stash[PASSCODE_STASH.sentAt] ?? 0);
    const wait = Math.ceil((sentAt + RESEND_AFTER_SECONDS * 1000 - Date.now()) / 1000);
    if (wait > 0) {
      throw new FlowError("rate_limit_exceeded", `A new code can be sent in ${wait} seconds`, {
        retryAfterSeconds: wait,
      });
    }
    ctx.stash[PASSCODE_STASH.resent] = true;
    // Re-entering the state mails the new code.
    return { stay: true };
  },
};
