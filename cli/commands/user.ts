import { setAccountLocked } from "@/lib/accounts";
import { findTenant } from "@/lib/tenants";
import { printJson, UsageError } from "../output";
import type { Command } from "./command";

const CLI = { actor: "cli" } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `user lock` and `user unlock`: the console's and the admin API's operation (lib/accounts/user-lock.ts). */
function lockCommand(locked: boolean): Command {
  const verb = locked ? "lock" : "unlock";
  return {
    name: `user ${verb}`,
    usage: `user ${verb} --tenant <tenant-id> --user <user-id> [--json]`,
    description: locked
      ? "Lock a user: their sessions end at once and every sign-in is refused until unlocked (audited, webhook user.update)."
      : "Unlock a locked user: they may sign in again (audited, webhook user.update).",
    options: { tenant: { type: "string" }, user: { type: "string" } },
    async run({ values, json }) {
      if (typeof values.tenant !== "string") throw new UsageError("--tenant <tenant-id> is required");
      if (typeof values.user !== "string" || !UUID.test(values.user)) {
        throw new UsageError("--user <user-id> (a UUID) is required");
      }
      const tenant = UUID.test(values.tenant) ? await findTenant(values.tenant) : undefined;
      if (!tenant) throw new UsageError(`no tenant ${values.tenant}`);
      const { user, emails } = await setAccountLocked(tenant, values.user, locked, CLI);
      if (json) return printJson({ user: { id: user.id, locked: user.lockedAt !== null } });
      const email = emails.find((e) => e.isPrimary)?.address ?? emails[0]?.address;
      process.stdout.write(
        `${locked ? "Locked" : "Unlocked"} user ${user.id}${email ? ` (${email})` : ""}.${locked ? " Their sessions have ended." : ""}\n`,
      );
    },
  };
}

export const USER_COMMANDS = [lockCommand(true), lockCommand(false)];
