import { transaction } from "@/lib/db";
import type { EmailRow } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { lockUser } from "@/lib/users";
import { selectEmail } from "./store";

/**
 * Runs `work` on one of the user's own addresses, in a transaction under the user's lock. Another
 * user's address, or an unknown id, is 404 (not found either).
 */
export async function withOwnEmail<T>(
  tenantId: string,
  userId: string,
  emailId: string,
  work: (email: EmailRow) => Promise<T>,
): Promise<T> {
  return transaction(async () => {
    await lockUser(tenantId, userId);
    const email = await selectEmail(tenantId, emailId);
    if (!email || email.userId !== userId)
      throw new AppError("EMAIL_NOT_FOUND", undefined, { details: ["email not found"] });
    return work(email);
  });
}
