import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { listAuditEvents } from "@/lib/audit";
import { findEmailByAddress, findUserEmails } from "@/lib/emails";
import { AppError } from "@/lib/errors";
import { updateTenant, type Tenant } from "@/lib/tenants";
import { addUser } from "@/lib/users";
import { createTestTenant } from "@/tests/helpers/tenants";
import { findIdentity, listIdentities } from "@/lib/identities";
import { addEmail, linkIdentity, removeIdentity, signInWithIdentity, type AssertedIdentity } from ".";

const context = { ip: "192.0.2.1" };
const asserted = (overrides: Partial<AssertedIdentity> = {}): AssertedIdentity => ({
  kind: "oauth",
  providerId: "google",
  subject: `sub-${randomUUID()}`,
  email: `${randomUUID()}@example.com`,
  emailVerified: true,
  claims: { name: "Ada" },
  ...overrides,
});

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

async function userWithAddress(tenant: Tenant, address: string, verified = true) {
  const user = await addUser(tenant.id);
  await addEmail(tenant, user.id, { address, verified, context, signUp: true });
  return user;
}

describe("signInWithIdentity", () => {
  it("signs up on the first sign-in, then signs the same user in and refreshes the claims", async () => {
    const { tenant } = await createTestTenant();
    const first = asserted({ email: "Ada@Example.com" });
    const created = await signInWithIdentity(tenant, first, { allowLinking: false }, context);
    expect(created.outcome).toBe("signed_up");
    const emails = await findUserEmails(tenant.id, created.user.id);
    expect(emails.map((e) => [e.address, e.verified, e.isPrimary])).toEqual([
      ["ada@example.com", true, true],
    ]);

    const again = await signInWithIdentity(
      tenant,
      { ...first, claims: { name: "Ada L." } },
      { allowLinking: false },
      context,
    );
    expect(again.outcome).toBe("signed_in");
    expect(again.user.id).toBe(created.user.id);
    expect(again.identity.claims).toEqual({ name: "Ada L." });
    expect((await listIdentities(tenant.id, created.user.id)).map((i) => i.id)).toEqual([
      created.identity.id,
    ]);
  });

  it("links an existing user only by a verified email and only when linking is allowed", async () => {
    const { tenant } = await createTestTenant();
    const address = `${randomUUID()}@example.com`;
    const existing = await userWithAddress(tenant, address);

    expect(
      await codeOf(
        signInWithIdentity(tenant, asserted({ email: address }), { allowLinking: false }, context),
      ),
    ).toBe("THIRD_PARTY_LINKING_DISABLED");
    expect(
      await codeOf(
        signInWithIdentity(
          tenant,
          asserted({ email: address, emailVerified: false }),
          { allowLinking: true },
          context,
        ),
      ),
    ).toBe("THIRD_PARTY_EMAIL_UNVERIFIED");
    expect(await listIdentities(tenant.id, existing.id)).toEqual([]);

    const linked = await signInWithIdentity(
      tenant,
      asserted({ email: address }),
      { allowLinking: true },
      context,
    );
    expect(linked.outcome).toBe("linked");
    expect(linked.user.id).toBe(existing.id);
    const events = await listAuditEvents(tenant.id, { type: "identity.linked" });
    expect(JSON.stringify(events)).toContain(linked.identity.id);
  });

  it("refuses without an address, and sign-up when the tenant closed it", async () => {
    const { tenant } = await createTestTenant();
    expect(
      await codeOf(signInWithIdentity(tenant, asserted({ email: null }), { allowLinking: true }, context)),
    ).toBe("THIRD_PARTY_EMAIL_MISSING");
    const closed = await updateTenant(tenant.id, { platform: { account: { allowSignup: false } } });
    const refused = asserted();
    expect(await codeOf(signInWithIdentity(closed, refused, { allowLinking: true }, context))).toBe(
      "SIGN_UP_DISABLED",
    );
    expect(await findEmailByAddress(tenant.id, refused.email!)).toBeUndefined();
    expect(await findIdentity(tenant.id, refused)).toBeUndefined();
  });

  it("takes over another user's mere claim on the address when the provider verified it", async () => {
    const { tenant } = await createTestTenant({
      platform: { emails: { requireVerification: true } },
    } as never);
    const owner = await userWithAddress(tenant, `${randomUUID()}@example.com`);
    const address = `${randomUUID()}@example.com`;
    await addEmail(tenant, owner.id, { address, verified: false, context });
    const result = await signInWithIdentity(
      tenant,
      asserted({ email: address }),
      { allowLinking: false },
      context,
    );
    expect(result.outcome).toBe("signed_up");
    expect(result.user.id).not.toBe(owner.id);
    expect((await findEmailByAddress(tenant.id, address))?.userId).toBe(result.user.id);
  });

  it("keeps tenants apart: the same provider account is a new user in another tenant", async () => {
    const a = (await createTestTenant()).tenant;
    const b = (await createTestTenant()).tenant;
    const same = asserted();
    const inA = await signInWithIdentity(a, same, { allowLinking: false }, context);
    const inB = await signInWithIdentity(b, same, { allowLinking: false }, context);
    expect(inB.outcome).toBe("signed_up");
    expect(inB.user.id).not.toBe(inA.user.id);
  });
});

describe("linkIdentity and removeIdentity", () => {
  it("connects a provider account to a signed-in user, refuses another user's, and removes it", async () => {
    const { tenant } = await createTestTenant();
    const user = await userWithAddress(tenant, `${randomUUID()}@example.com`);
    const other = await userWithAddress(tenant, `${randomUUID()}@example.com`);
    const account = asserted({ kind: "saml", providerId: randomUUID() });
    const linked = await linkIdentity(tenant, user.id, account, context);
    expect(linked.outcome).toBe("linked");
    expect(await codeOf(linkIdentity(tenant, other.id, account, context))).toBe("IDENTITY_LINKED_ELSEWHERE");

    expect(await codeOf(removeIdentity(tenant, other.id, linked.identity.id, context))).toBe(
      "IDENTITY_NOT_FOUND",
    );
    expect(await listIdentities(tenant.id, user.id)).toHaveLength(1);
    await removeIdentity(tenant, user.id, linked.identity.id, context);
    expect(await listIdentities(tenant.id, user.id)).toEqual([]);
    expect(await codeOf(removeIdentity(tenant, user.id, linked.identity.id, context))).toBe(
      "IDENTITY_NOT_FOUND",
    );
  });
});

describe("pre-account hijacking", () => {
  it("creates no user on an unverified provider address while the tenant requires verification", async () => {
    const { tenant } = await createTestTenant();
    const unverified = asserted({ emailVerified: false });
    expect(await codeOf(signInWithIdentity(tenant, unverified, { allowLinking: true }, context))).toBe(
      "THIRD_PARTY_EMAIL_UNVERIFIED",
    );
    expect(await findEmailByAddress(tenant.id, unverified.email!)).toBeUndefined();
    expect(await findIdentity(tenant.id, unverified)).toBeUndefined();

    const relaxed = await updateTenant(tenant.id, { platform: { emails: { requireVerification: false } } });
    const created = await signInWithIdentity(relaxed, unverified, { allowLinking: true }, context);
    expect(created.outcome).toBe("signed_up");
    expect((await findEmailByAddress(tenant.id, unverified.email!))?.verified).toBe(false);
  });

  it("never links a verified provider address onto a user who has not verified it", async () => {
    const { tenant } = await createTestTenant();
    const address = `${randomUUID()}@example.com`;
    const squatter = await userWithAddress(tenant, address, false);
    const result = signInWithIdentity(tenant, asserted({ email: address }), { allowLinking: true }, context);
    expect(await codeOf(result)).toBe("THIRD_PARTY_LINKING_DISABLED");
    expect(await listIdentities(tenant.id, squatter.id)).toEqual([]);
  });
});

describe("one account per provider and user", () => {
  it("does not link a second subject of the same provider onto a user by its address", async () => {
    const { tenant } = await createTestTenant();
    const first = asserted({ kind: "saml", providerId: randomUUID() });
    const owner = await signInWithIdentity(tenant, first, { allowLinking: true }, context);
    const newcomer = { ...first, subject: `sub-${randomUUID()}` };
    expect(await codeOf(signInWithIdentity(tenant, newcomer, { allowLinking: true }, context))).toBe(
      "THIRD_PARTY_LINKING_DISABLED",
    );
    expect(await listIdentities(tenant.id, owner.user.id)).toHaveLength(1);
    // Another provider's account with the verified address still links.
    const other = await signInWithIdentity(
      tenant,
      { ...first, kind: "oauth", providerId: "google", subject: "g-1" },
      { allowLinking: true },
      context,
    );
    expect(other.outcome).toBe("linked");
  });
});
