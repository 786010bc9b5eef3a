import { randomUUID } from "node:crypto";
import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import { emitWebhookEvent } from "@/lib/webhooks";
import { userWebhookData } from "./user-event-data";
import { EmailTaken } from "@/lib/emails";
import { addEmail } from "./email-changes";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { adminViewOf, userNotFound, type AdminUser } from "./admin-user";
import { findUserByUsername } from "@/lib/users";
import { requirePlatformUser } from "@/lib/users";
import {
  changePlatformUser,
  createUserAsAdmin,
  pagePlatformUsers,
  removeUser,
  type PlatformUserFilter,
  type UserProfileChanges,
} from "@/lib/users";
import { holdsAddressLike } from "@/lib/emails";
import { hasPasskeyCondition } from "@/lib/credentials";
import { hasPasswordCondition } from "@/lib/passwords";
import { sql } from "drizzle-orm";
import { isUniqueViolation, normalizeUsername, UsernameTaken } from "@/lib/users";

export interface AdminUserListQuery {
  userIds?: string[];
  /** Part of an address; with `username` too, either may match (Hanko's rule). */
  email?: string;
  /** Part of a username. */
  username?: string;
  /** With (true) or without (false) a passkey (a WebAuthn credential that is not MFA-only); the console's filter. */
  passkey?: boolean;
  /** With (true) or without (false) a password; the console's filter. */
  password?: boolean;
  page: number;
  perPage: number;
  direction: "asc" | "desc";
}

export interface AdminUserPage {
  users: AdminUser[];
  /** Every matching user, over all pages (`X-Total-Count`). */
  total: number;
}

/**
 * `GET /admin/users`: a page of the tenant's platform users (Passkey API users, who have an external id,
 * are not listed), newest first unless `direction` is `asc`. `email` and `username` match parts,
 * case-insensitively; with both, either may match; `userIds` restricts to those ids; `passkey` and
 * `password` (the console's filters) keep the users with (true) or without (false) one.
 */
export async function listAdminUsers(tenantId: string, query: AdminUserListQuery): Promise<AdminUserPage> {
  // The conditions on other tables come from their owners; lib/users applies them in one query.
  const conditions: PlatformUserFilter["conditions"] = [];
  if (query.passkey !== undefined) {
    const wanted = query.passkey;
    conditions.push((userId) => {
      const passkey = hasPasskeyCondition(tenantId, userId);
      return wanted ? passkey : sql`not ${passkey}`;
    });
  }
  if (query.password !== undefined) {
    const wanted = query.password;
    conditions.push((userId) => {
      const password = hasPasswordCondition(userId);
      return wanted ? password : sql`not ${password}`;
    });
  }
  const filter: PlatformUserFilter = {
    userIds: query.userIds,
    username: query.username?.toLowerCase(),
    address: query.email === undefined ? undefined : holdsAddressLike(tenantId, query.email.toLowerCase()),
    conditions,
  };
  const { users, total } = await pagePlatformUsers(tenantId, filter, {
    offset: (query.page - 1) * query.perPage,
    limit: query.perPage,
    direction: query.direction,
  });
  const views: AdminUser[] = [];
  for (const user of users) views.push(await adminViewOf(user));
  return { users: views, total };
}

/** An address of a new user (already normalised). */
export interface NewUserEmail {
  address: string;
  isPrimary: boolean;
  isVerified: boolean;
}

/** Hanko's admin `CreateUser`: at least one address or a username; exactly one primary address. */
export interface NewUserInput {
  id?: string;
  emails: NewUserEmail[];
  username?: string | null;
  createdAt?: Date;
}

const invalid = (detail: string) => new AppError("NEW_USER_INVALID", undefined, { details: [detail] });

function checkNewUser(input: NewUserInput): void {
  if (input.emails.length === 0 && !input.username) {
    throw invalid("at least one of emails and username must be set");
  }
  const primaries = input.emails.filter((email) => email.isPrimary).length;
  if (input.emails.length > 0 && primaries === 0) throw invalid("one email must be primary");
  if (primaries > 1) throw invalid("only one email may be primary");
  const addresses = new Set(input.emails.map((email) => email.address));
  if (addresses.size !== input.emails.length) throw invalid("emails must be unique");
}

/**
 * `POST /admin/users`: a platform user with the given (or a new) id, addresses and username, in one
 * transaction. A taken id is USER_EXISTS, a taken address EMAIL_TAKEN, a taken username USERNAME_TAKEN
 * (all 409); nothing is written then. Records `user.created` (and `email.create.succeeded` per address).
 */
export async function createAdminUser(
  tenant: Tenant,
  input: NewUserInput,
  context: AuditContext,
): Promise<AdminUser> {
  return auditFailures(tenant.id, "user.create", context, async () => {
    checkNewUser(input);
    const username = input.username ? normalizeUsername(tenant, input.username) : null;
    const id = input.id?.toLowerCase() ?? randomUUID();
    return transaction(async () => {
      if (username && (await findUserByUsername(tenant.id, username))) throw new UsernameTaken();
      let created;
      try {
        created = await createUserAsAdmin(tenant.id, { id, username, createdAt: input.createdAt });
      } catch (error) {
        if (isUniqueViolation(error)) throw new UsernameTaken();
        throw error;
      }
      if (!created) {
        // The id is the primary key across tenants; a concurrent insert may have taken the username.
        if (username && (await findUserByUsername(tenant.id, username))) throw new UsernameTaken();
        throw new AppError("USER_EXISTS", undefined, { details: ["a user with this id already exists"] });
      }
      // The primary first: addEmail makes a user's first address primary, and only that one.
      const ordered = [...input.emails].sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary));
      for (const email of ordered) {
        await addEmail(tenant, created.id, {
          address: email.address,
          verified: email.isVerified,
          context,
          // The admin asked for this address: another user's claim on it is a conflict, not released.
          takeOverClaim: false,
          signUp: true,
        }).catch((error) => {
          throw error instanceof EmailTaken
            ? new AppError("EMAIL_TAKEN", undefined, {
                details: [`a user with the email address ${email.address} already exists`],
              })
            : error;
        });
      }
      await recordAuditEvent(tenant.id, {
        ...context,
        type: "user.created",
        details: { userId: created.id, emails: input.emails.length, username },
      });
      // Read within the transaction: the data of the `user.create` event, which commits with the user.
      const view = await adminViewOf(created);
      await emitWebhookEvent(tenant.id, "user.create", async () => userWebhookData(view));
      return view;
    });
  });
}

/** The admin PATCH: each field left out stays, a string sets it, `null` clears it. */
export interface AdminUserChanges {
  username?: string | null;
  name?: string | null;
  givenName?: string | null;
  familyName?: string | null;
  picture?: string | null;
}

/**
 * `PATCH /admin/users/{id}`: sets or clears the username and the profile claims under the user lock.
 * A malformed username is USERNAME_INVALID (400), another user's USERNAME_TAKEN (409). Records
 * `user.updated` with the fields that changed (nothing recorded when nothing changed).
 */
export async function updateAdminUser(
  tenant: Tenant,
  userId: string,
  changes: AdminUserChanges,
  context: AuditContext,
): Promise<AdminUser> {
  return auditFailures(tenant.id, "user.update", context, async () => {
    return transaction(async () => {
      const current = await requirePlatformUser(tenant.id, userId, { lock: true });
      const next: UserProfileChanges = {};
      if (changes.username !== undefined) {
        const username = changes.username === null ? null : normalizeUsername(tenant, changes.username);
        if (username !== null) {
          const holder = await findUserByUsername(tenant.id, username);
          if (holder && holder.id !== current.id) throw new UsernameTaken();
        }
        next.username = username;
      }
      for (const field of ["name", "givenName", "familyName", "picture"] as const) {
        if (changes[field] !== undefined) next[field] = changes[field];
      }
      const changed = (Object.keys(next) as (keyof UserProfileChanges)[]).filter(
        (field) => next[field] !== current[field],
      );
      if (changed.length === 0) return adminViewOf(current);
      let updated;
      try {
        updated = await changePlatformUser(tenant.id, current.id, next);
      } catch (error) {
        if (isUniqueViolation(error)) throw new UsernameTaken();
        throw error;
      }
      if (!updated) throw userNotFound();
      await recordAuditEvent(tenant.id, {
        ...context,
        type: "user.updated",
        details: { userId: current.id, changed },
      });
      // Read within the transaction: the data of the `user.update` event, which commits with the change.
      const view = await adminViewOf(updated);
      await emitWebhookEvent(tenant.id, "user.update", async () => userWebhookData(view));
      return view;
    });
  });
}

/**
 * `DELETE /admin/users/{id}`: deletes the platform user and, by the database's cascades in the same
 * statement (so in one transaction), its addresses, credentials, sessions, password, OTP secret,
 * passcodes, UAF registrations and requests, one-time tokens and metadata. Records `user.deleted`.
 * Returns the admin `User` as it was (the data of a `user.delete` event).
 */
export async function deleteAdminUser(
  tenant: Tenant,
  userId: string,
  context: AuditContext,
): Promise<AdminUser> {
  return auditFailures(tenant.id, "user.delete", context, () =>
    transaction(async () => {
      const before = await adminViewOf(await requirePlatformUser(tenant.id, userId, { lock: true }));
      if (!(await removeUser(tenant.id, before.user.id))) throw userNotFound();
      await recordAuditEvent(tenant.id, {
        ...context,
        type: "user.deleted",
        details: { userId: before.user.id },
      });
      await emitWebhookEvent(tenant.id, "user.delete", async () => userWebhookData(before));
      return before;
    }),
  );
}
