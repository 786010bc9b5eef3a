import type { ActionDefinition } from "@/lib/flows/definition";
import { endSession } from "@/lib/sessions";
import { notFound, profileOf } from "../profile";
import { otherSessions } from "../sessions";

export const sessionDelete: ActionDefinition = {
  description: "End another session of the user.",
  // The elements show a revoke button only for the ids listed here.
  inputs: async (ctx) => [
    {
      name: "session_id",
      type: "string",
      required: true,
      hidden: true,
      allowedValues: otherSessions(ctx, await profileOf(ctx)).map((row) => ({ value: row.id, name: row.id })),
    },
  ],
  available: async (ctx) => otherSessions(ctx, await profileOf(ctx)).length > 0,
  async run(ctx, input) {
    const session = otherSessions(ctx, await profileOf(ctx)).find((row) => row.id === input.session_id);
    if (!session) throw notFound("Session");
    await endSession(ctx.tenant, session, ctx.audit, "revoked");
    return { stay: true };
  },
};
