import type { ActionDefinition } from "@/lib/flows/definition";
import { deleteAccount } from "@/lib/accounts";
import { profileOf } from "../profile";

export const accountDelete: ActionDefinition = {
  description: "Delete the account.",
  available: (ctx) => ctx.tenant.platform.account.allowDeletion,
  async run(ctx) {
    const { user } = await profileOf(ctx);
    await deleteAccount(ctx.tenant, user, ctx.audit);
    ctx.endsSession = true;
    return { to: "account_deleted" };
  },
};
