import type { ActionDefinition } from "@/lib/flows/definition";
import { FlowError } from "@/lib/flows/errors";
import { removeIdentity } from "@/lib/accounts";
import { canLogInWithout, notFound, profileOf, when } from "../profile";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Removes one of the user's identities (`identity_id`, Sesame's id as the profile's `identities` show
 * it). Another user's or an unknown id is not found. Unlike Hanko, the last way to sign in is not
 * removed (as for the last passkey or the password): the account would be locked out.
 */
export const disconnectThirdpartyOauthProvider: ActionDefinition = {
  description: "Disconnect a third party provider via OAuth.",
  inputs: [{ name: "identity_id", type: "string", required: true, maxLength: 36 }],
  available: when((profile) => profile.identityRows.length > 0),
  async run(ctx, input) {
    const id = String(input.identity_id);
    const profile = await profileOf(ctx);
    const row = UUID.test(id) ? profile.identityRows.find((identity) => identity.id === id) : undefined;
    if (!row) throw notFound("Identity");
    if (!canLogInWithout(ctx.tenant, profile, { identityId: row.id })) {
      throw new FlowError(
        "operation_not_permitted_error",
        "The last way to sign in cannot be removed: add a passkey, password or email address first",
      );
    }
    await removeIdentity(ctx.tenant, profile.user.id, row.id, ctx.audit);
    return { stay: true };
  },
};
