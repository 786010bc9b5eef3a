import { findEmailByAddress } from "@/lib/emails";
import { findUser, type User } from "@/lib/users";

/** The user holding the address (lower-cased) in the tenant, verified or not. */
export async function findUserByEmail(tenantId: string, address: string): Promise<User | undefined> {
  const email = await findEmailByAddress(tenantId, address.toLowerCase());
  return email ? findUser(tenantId, email.userId) : undefined;
}
