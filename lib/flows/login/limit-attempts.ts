import type { FlowContext } from "@/lib/flows/definition";
import { FlowError } from "@/lib/flows/errors";
import { RateLimited, consumeRateLimit } from "@/lib/rate-limit";
import type { User } from "@/lib/users";

/** Password and TOTP guesses share the tenant's `password` limit, per IP and per user. */
export async function limitAttempts(ctx: FlowContext, user: User): Promise<void> {
  try {
    await consumeRateLimit(ctx.tenant, "password", {
      ip: ctx.audit.ip ?? null,
      body: { user_id: user.id },
      audit: ctx.audit,
    });
  } catch (error) {
    if (!(error instanceof RateLimited)) throw error;
    const retry = error.outcome.retryAfterSeconds;
    throw new FlowError("rate_limit_exceeded", "Too many attempts: try again later", {
      cause: error,
      ...(retry === undefined ? {} : { retryAfterSeconds: retry }),
    });
  }
}
