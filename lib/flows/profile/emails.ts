import { addEmail } from "@/lib/accounts";
import { verifyEmail } from "@/lib/accounts";
import type { FlowContext } from "@/lib/flows/definition";
import { FlowError } from "@/lib/flows/errors";
import type { User } from "@/lib/users";
import { notFound } from "./profile";

export const emailTaken = (input?: string) =>
  new FlowError("email_already_exists", "The email address already exists", input ? { input } : {});

/**
 * A verified address proven by a code (`email_create` with verification): added verified, primary if
 * the user has none (`addEmail`). Another user's mere claim on it is released (see `isClaimOnly`). A taken
 * address or a full account is answered by the flow error table (`email_already_exists`,
 * `operation_not_permitted_error`).
 */
export async function addVerifiedEmail(ctx: FlowContext, user: User, address: string): Promise<void> {
  await addEmail(ctx.tenant, user.id, { address, verified: true, context: ctx.audit });
}

/** One of the user's addresses proven by a code (`email_verify`): verified, primary if none is. */
export async function markVerified(ctx: FlowContext, user: User, emailId: string): Promise<void> {
  const email = await verifyEmail(ctx.tenant, user.id, emailId, { context: ctx.audit, withSession: true });
  if (!email) throw notFound("Email");
}
