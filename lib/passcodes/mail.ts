import type { PasscodePurpose } from "@/lib/db/schema";
import type { Mail } from "@/lib/mail";
import type { Tenant } from "@/lib/tenants";

const minutes = (seconds: number) => {
  const value = Math.max(1, Math.round(seconds / 60));
  return `${value} minute${value === 1 ? "" : "s"}`;
};

/** The passcode mail: the code on the first line (the dev outbox logs that line). */
export function passcodeMail(
  tenant: Tenant,
  purpose: PasscodePurpose,
  to: string,
  code: string,
  ttlSeconds: number,
): Mail {
  const login = purpose === "login";
  return {
    to,
    subject: login ? `Your ${tenant.name} login code` : `Verify your email address for ${tenant.name}`,
    text: [
      `Your ${login ? "login" : "verification"} code for ${tenant.name} is ${code}`,
      "",
      `It is valid for ${minutes(ttlSeconds)} and works once.`,
      "If you did not ask for it, ignore this mail; nobody can use it without access to your mailbox.",
      "",
    ].join("\n"),
  };
}
