import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { USERNAME_PATTERN } from "./lookup";
import { updatePlatformUsername } from "./store";
import type { User } from "./user";

/** Another platform user of the tenant has this username (compared case-insensitively). */
export class UsernameTaken extends AppError {
  constructor() {
    super("USERNAME_TAKEN", "username already exists", { details: ["another user has this username"] });
  }
}

/** A username outside the tenant's length bounds or the allowed characters. */
export class InvalidUsername extends AppError {
  constructor(detail: string) {
    super("USERNAME_INVALID", "invalid username", { details: [detail] });
  }
}

/** Usernames answer only for tenants that enable them, and only for platform users (no external id). */
export function ensureUsernames(tenant: Tenant, user: User): void {
  if (!tenant.platform.username.enabled) {
    throw new AppError("USERNAME_NOT_ENABLED", undefined, {
      details: ["usernames are not enabled for this tenant"],
    });
  }
  if (user.externalId !== null) {
    throw new AppError("USERNAME_NOT_ENABLED", undefined, {
      details: ["only platform users have a username here"],
    });
  }
}

/**
 * The username as kept: trimmed and lower-cased (Hanko's rule), within the tenant's length bounds in
 * code points, letters and digits first, then also `_`, `-` and `.`.
 */
export function normalizeUsername(tenant: Tenant, raw: string): string {
  const username = raw.trim().toLowerCase();
  const { minLength, maxLength } = tenant.platform.username;
  const length = [...username].length;
  if (length < minLength || length > maxLength) {
    throw new InvalidUsername(`must be ${minLength} to ${maxLength} characters long`);
  }
  if (!USERNAME_PATTERN.test(username)) {
    throw new InvalidUsername("letters, digits, '_', '-' and '.' only, starting with a letter or digit");
  }
  return username;
}

/** A unique-index violation (Postgres and PGlite), possibly wrapped by the driver. */
export function isUniqueViolation(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

/** Writes the platform user's username (`null` removes it); undefined when there is no such platform user. */
export async function changeUsername(
  tenantId: string,
  userId: string,
  username: string | null,
): Promise<User | undefined> {
  return updatePlatformUsername(tenantId, userId, username);
}
