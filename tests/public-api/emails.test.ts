import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as emailRoute from "@/app/(public-api)/t/[tenantId]/emails/[emailId]/route";
import * as setPrimaryRoute from "@/app/(public-api)/t/[tenantId]/emails/[emailId]/set_primary/route";
import * as emailsRoute from "@/app/(public-api)/t/[tenantId]/emails/route";
import * as finalizeRoute from "@/app/(public-api)/t/[tenantId]/passcode/login/finalize/route";
import * as meRoute from "@/app/(public-api)/t/[tenantId]/me/route";
import { listAuditEvents } from "@/lib/audit";
import { executor } from "@/lib/db";
import { emails } from "@/lib/db/schema";
import { listOutbox } from "@/lib/mail";
import type { Tenant } from "@/lib/tenants";
import type { User } from "@/lib/users";
import {
  ORIGIN,
  createPasscodeTenant,
  createUserWithEmail,
  publicCall,
  sessionFor,
  useDevOutbox,
} from "../helpers/public-api";
import { outboxCode } from "../helpers/smtp";

useDevOutbox();

const list = (tenant: Tenant, token: string) =>
  publicCall(emailsRoute.GET, tenant, "GET", "/emails", { token });
const add = (tenant: Tenant, token: string, body: unknown) =>
  publicCall(emailsRoute.POST, tenant, "POST", "/emails", { token, body });
const remove = (tenant: Tenant, token: string, emailId: string) =>
  publicCall(emailRoute.DELETE, tenant, "DELETE", `/emails/${emailId}`, { token }, { emailId });
const makePrimary = (tenant: Tenant, token: string, emailId: string, method: "PUT" | "POST" = "PUT") =>
  publicCall(
    method === "PUT" ? setPrimaryRoute.PUT : setPrimaryRoute.POST,
    tenant,
    method,
    `/emails/${emailId}/set_primary`,
    { token },
    { emailId },
  );

async function rowsOf(user: User) {
  const db = await executor();
  return db.select().from(emails).where(eq(emails.userId, user.id)).orderBy(emails.createdAt);
}

/** Adds an address and verifies it with the mailed code. */
async function addVerified(tenant: Tenant, token: string, address: string): Promise<string> {
  const res = await add(tenant, token, { address });
  expect(res.status, await res.clone().text()).toBe(200);
  const { id, passcode } = await res.json();
  const code = await outboxCode(tenant.id, address);
  const ok = await publicCall(finalizeRoute.POST, tenant, "POST", "/passcode/login/finalize", {
    token,
    body: { id: passcode.id, code },
  });
  expect(ok.status).toBe(200);
  return id;
}

async function signedIn(tenant: Tenant, address = `${crypto.randomUUID()}@example.com`) {
  const user = await createUserWithEmail(tenant, address);
  return { user, token: await sessionFor(tenant, user), address };
}

describe("emails", () => {
  it("lists the user's addresses in Hanko's shape (deprecated)", async () => {
    const tenant = await createPasscodeTenant();
    const { user, token } = await signedIn(tenant, "list@example.com");
    const res = await list(tenant, token);
    expect(res.status).toBe(200);
    const [primary] = await rowsOf(user);
    expect(await res.json()).toEqual([
      { id: primary!.id, address: "list@example.com", is_verified: true, is_primary: true },
    ]);
    expect(res.headers.get("deprecation")).toBe("true");
    expect(res.headers.get("link")).toContain(`/t/${tenant.id}/profile>; rel="successor-version"`);
    expect((await publicCall(emailsRoute.GET, tenant, "GET", "/emails")).status).toBe(401);
  });

  it("adds an address, mails a verification code and verifies it with the user's session", async () => {
    const tenant = await createPasscodeTenant();
    const { user, token } = await signedIn(tenant);
    const res = await add(tenant, token, { address: "  Second@Example.COM " });
    expect(res.status).toBe(200);
    const created = await res.json();
    expect(created).toEqual({
      id: expect.any(String),
      address: "second@example.com",
      is_verified: false,
      is_primary: false,
      passcode: { id: expect.any(String), ttl: 300, created_at: expect.any(String) },
    });
    const [mail] = await listOutbox(tenant.id, { to: "second@example.com" });
    expect(mail!.subject).toBe(`Verify your email address for ${tenant.name}`);

    const code = await outboxCode(tenant.id, "second@example.com");
    const ok = await publicCall(finalizeRoute.POST, tenant, "POST", "/passcode/login/finalize", {
      token,
      body: { id: created.passcode.id, code },
    });
    expect(ok.status).toBe(200);
    const profile = await (await publicCall(meRoute.GET, tenant, "GET", "/me", { token })).json();
    expect(profile.emails).toContainEqual({
      id: created.id,
      address: "second@example.com",
      is_verified: true,
      is_primary: false,
    });
    const events = (await listAuditEvents(tenant.id, { limit: 50 })).items;
    expect(events.find((event) => event.type === "email.create.succeeded")?.details).toEqual({
      userId: user.id,
      emailId: created.id,
    });
    expect(events.map((event) => event.type)).toContain("email.verified");
  });

  it("mails nothing when the tenant does not require verification", async () => {
    const tenant = await createPasscodeTenant({ platform: { emails: { requireVerification: false } } });
    const { token } = await signedIn(tenant);
    const res = await add(tenant, token, { address: "quiet@example.com" });
    expect(res.status).toBe(200);
    const created = await res.json();
    expect(created.passcode).toBeUndefined();
    expect(created.is_verified).toBe(false);
    expect(await listOutbox(tenant.id)).toEqual([]);
  });

  it("refuses taken addresses, the maximum per user and bad input, and changes nothing", async () => {
    const tenant = await createPasscodeTenant({ platform: { emails: { maxPerUser: 2 } } });
    const { user, token, address } = await signedIn(tenant);
    const other = await signedIn(tenant, "taken@example.com");
    const before = await rowsOf(user);

    const cases: [unknown, number, string][] = [
      [{ address }, 409, "Conflict: the address is already one of yours"],
      [{ address: address.toUpperCase() }, 409, "Conflict: the address is already one of yours"],
      [{ address: "taken@example.com" }, 409, "Conflict: the address belongs to another account"],
      [{ address: "not an address" }, 400, "Bad Request: body.address: must be an email address"],
      [{ address: `${"a".repeat(250)}@example.com` }, 400, "Bad Request: body.address: must be at most 254"],
      [{}, 400, "Bad Request: body.address: "],
      [{ address: 42 }, 400, "Bad Request: body.address: "],
    ];
    for (const [body, status, message] of cases) {
      const res = await add(tenant, token, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      const error = await res.json();
      expect(error.code).toBe(status);
      expect(error.message.startsWith(message), error.message).toBe(true);
    }
    expect(await rowsOf(user)).toEqual(before);
    expect((await rowsOf(other.user)).map((row) => row.address)).toEqual(["taken@example.com"]);

    expect((await add(tenant, token, { address: "two@example.com" })).status).toBe(200);
    const full = await add(tenant, token, { address: "three@example.com" });
    expect(full.status).toBe(409);
    expect(await full.json()).toEqual({
      code: 409,
      message: "Conflict: max number of email addresses reached (2)",
    });
    expect(await rowsOf(user)).toHaveLength(2);
    const failures = (await listAuditEvents(tenant.id, { limit: 50 })).items.filter(
      (event) => event.type === "email.create.failed",
    );
    expect(failures.length).toBeGreaterThanOrEqual(4);
  });

  it("moves another user's unverified claim on an address to the user who adds it", async () => {
    const tenant = await createPasscodeTenant();
    const squatter = await signedIn(tenant);
    const claimed = await add(tenant, squatter.token, { address: "victim@example.com" });
    const claim = await claimed.json();
    const victim = await signedIn(tenant);
    const res = await add(tenant, victim.token, { address: "victim@example.com" });
    expect(res.status).toBe(200);
    expect((await rowsOf(squatter.user)).map((row) => row.address)).not.toContain("victim@example.com");
    expect((await rowsOf(victim.user)).map((row) => row.address)).toContain("victim@example.com");
    // The squatter's code no longer works: its address row is gone.
    const code = (await listOutbox(tenant.id, { to: "victim@example.com", limit: 2 }))[1]!.text.match(
      /\d{6}/,
    )![0];
    const stale = await publicCall(finalizeRoute.POST, tenant, "POST", "/passcode/login/finalize", {
      token: squatter.token,
      body: { id: claim.passcode.id, code },
    });
    expect(stale.status).toBe(401);
    expect((await listAuditEvents(tenant.id, { limit: 50 })).items.map((event) => event.type)).toContain(
      "email.claim_released",
    );

    // A verified address is never moved.
    const verified = await signedIn(tenant, "kept@example.com");
    expect((await add(tenant, victim.token, { address: "kept@example.com" })).status).toBe(409);
    expect(await rowsOf(verified.user)).toHaveLength(1);
  });

  it("sets the primary address (PUT; POST is the deprecated spelling)", async () => {
    const tenant = await createPasscodeTenant();
    const { user, token } = await signedIn(tenant);
    const secondId = await addVerified(tenant, token, "next@example.com");
    const put = await makePrimary(tenant, token, secondId);
    expect(put.status).toBe(204);
    expect(put.headers.get("deprecation")).toBeNull();
    let rows = await rowsOf(user);
    expect(rows.filter((row) => row.isPrimary).map((row) => row.id)).toEqual([secondId]);
    // Already primary: still 204, nothing recorded.
    expect((await makePrimary(tenant, token, secondId)).status).toBe(204);

    const firstId = rows.find((row) => row.id !== secondId)!.id;
    const post = await makePrimary(tenant, token, firstId, "POST");
    expect(post.status).toBe(204);
    expect(post.headers.get("deprecation")).toBe("true");
    expect(post.headers.get("link")).toContain(`/t/${tenant.id}/profile>`);
    rows = await rowsOf(user);
    expect(rows.filter((row) => row.isPrimary).map((row) => row.id)).toEqual([firstId]);
    const changes = (await listAuditEvents(tenant.id, { limit: 50 })).items.filter(
      (event) => event.type === "email.set_primary.succeeded",
    );
    expect(changes).toHaveLength(2);
  });

  it("refuses to make an unverified address primary when verification is required", async () => {
    const tenant = await createPasscodeTenant();
    const { user, token } = await signedIn(tenant);
    const { id } = await (await add(tenant, token, { address: "unproven@example.com" })).json();
    const res = await makePrimary(tenant, token, id);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      code: 409,
      message: "Conflict: verify the address before making it primary",
    });
    expect((await rowsOf(user)).find((row) => row.id === id)?.isPrimary).toBe(false);
    expect((await listAuditEvents(tenant.id, { limit: 50 })).items.map((event) => event.type)).toContain(
      "email.set_primary.failed",
    );
  });

  it("deletes an address, never the primary or the last one", async () => {
    const tenant = await createPasscodeTenant();
    const { user, token } = await signedIn(tenant);
    const [primary] = await rowsOf(user);
    const last = await remove(tenant, token, primary!.id);
    expect(last.status).toBe(409);
    expect(await last.json()).toEqual({
      code: 409,
      message: "Conflict: the primary address cannot be deleted: make another address primary first",
    });
    const { id } = await (await add(tenant, token, { address: "gone@example.com" })).json();
    const res = await remove(tenant, token, id);
    expect(res.status).toBe(204);
    expect(res.headers.get("deprecation")).toBe("true");
    expect((await rowsOf(user)).map((row) => row.id)).toEqual([primary!.id]);
    expect((await remove(tenant, token, id)).status).toBe(404);
    const types = (await listAuditEvents(tenant.id, { limit: 50 })).items.map((event) => event.type);
    expect(types).toEqual(expect.arrayContaining(["email.delete.succeeded", "email.delete.failed"]));
  });

  it("answers 404 for another user's or tenant's address and 400 for a malformed id", async () => {
    const tenant = await createPasscodeTenant();
    const other = await createPasscodeTenant();
    const { token } = await signedIn(tenant);
    const neighbour = await signedIn(tenant);
    const stranger = await signedIn(other);
    const neighbourAddress = await addVerified(tenant, neighbour.token, "neighbour2@example.com");
    const [strangerEmail] = await rowsOf(stranger.user);
    for (const emailId of [neighbourAddress, strangerEmail!.id, crypto.randomUUID()]) {
      for (const res of [await remove(tenant, token, emailId), await makePrimary(tenant, token, emailId)]) {
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ code: 404, message: "Not Found: email not found" });
      }
    }
    expect(await rowsOf(neighbour.user)).toHaveLength(2);
    expect((await rowsOf(neighbour.user)).find((row) => row.id === neighbourAddress)?.isPrimary).toBe(false);
    const malformed = await remove(tenant, token, "not-a-uuid");
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).message).toBe("Bad Request: params.emailId: must be a UUID");
    // Another tenant's session is no session here.
    const foreign = await list(tenant, stranger.token);
    expect(foreign.status).toBe(401);
  });

  it("checks Origin on cookie-carried changes (CSRF), not on Bearer ones", async () => {
    const tenant = await createPasscodeTenant();
    const { user, token } = await signedIn(tenant);
    const cookieOnly = await publicCall(emailsRoute.POST, tenant, "POST", "/emails", {
      cookie: token,
      origin: "https://evil.example",
      body: { address: "csrf@example.com" },
    });
    expect(cookieOnly.status).toBe(403);
    expect(await rowsOf(user)).toHaveLength(1);
    const allowed = await publicCall(emailsRoute.POST, tenant, "POST", "/emails", {
      cookie: token,
      origin: ORIGIN,
      body: { address: "csrf@example.com" },
    });
    expect(allowed.status).toBe(200);
    const db = await executor();
    const [row] = await db
      .select()
      .from(emails)
      .where(and(eq(emails.userId, user.id), eq(emails.address, "csrf@example.com")));
    expect(row).toBeDefined();
  });
});
