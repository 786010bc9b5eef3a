import type { FlowContext } from "@/lib/flows/definition";
import { flowUser } from "@/lib/flows/payloads";
import { profileMetadata } from "../metadata";
import { profileOf, sessionOf } from "../profile";
import { flowSession } from "../sessions";
import { STASH } from "../stash";

/**
 * `profile_init`: the user and the sessions, recomputed on every entry. Whatever was being set up
 * (a TOTP secret not yet confirmed, a credential ceremony) is abandoned here.
 */
export async function enterProfileInit(ctx: FlowContext) {
  delete ctx.stash[STASH.otpSetup];
  delete ctx.stash[STASH.creating];
  const profile = await profileOf(ctx);
  const current = sessionOf(ctx).session.id;
  const metadata = await profileMetadata(ctx.tenant.id, profile.user.id);
  return {
    user: { ...(await flowUser(ctx.tenant, profile.user)), ...(metadata ? { metadata } : {}) },
    sessions: profile.sessions.map((row) => flowSession(row, current)),
  };
}
