import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import * as logout from "@/app/(public-api)/t/[tenantId]/logout/route";
import * as me from "@/app/(public-api)/t/[tenantId]/me/route";
import * as validate from "@/app/(public-api)/t/[tenantId]/sessions/validate/route";
import * as config from "@/app/(public-api)/t/[tenantId]/.well-known/config/route";
import * as jwks from "@/app/(public-api)/t/[tenantId]/.well-known/jwks/route";
import { createAdminUser } from "@/lib/accounts";
import { listAuditEvents } from "@/lib/audit";
import { patchMetadata } from "@/lib/metadata";
import { sessionHeaders } from "@/lib/http";
import { issuerOf } from "@/lib/sessions";
import { getTenant, rotateSigningKey, signToken, updateTenant } from "@/lib/tenants";
import {
  ORIGIN,
  createPublicTenant,
  createUserWithEmail,
  publicCall,
  sessionFor,
  TEST_CONTEXT,
} from "../helpers/public-api";

describe("sessions", () => {
  it("shows the user's public and unsafe metadata on /me, never the private, and none without any", async () => {
    const tenant = await createPublicTenant();
    const { user } = await createAdminUser(
      tenant,
      { emails: [{ address: "meta@example.com", isPrimary: true, isVerified: true }] },
      TEST_CONTEXT,
    );
    const token = await sessionFor(tenant, user, ["passkey"]);
    const read = async () =>
      (await (await publicCall(me.GET, tenant, "GET", "/me", { token })).json()) as Record<string, unknown>;
    expect(await read()).not.toHaveProperty("metadata");
    await patchMetadata(
      tenant,
      user.id,
      { public_metadata: { role: "member" }, private_metadata: { secret: 1 }, unsafe_metadata: { a: 1 } },
      TEST_CONTEXT,
    );
    const shown = await read();
    expect(shown).toMatchObject({ emails: [{ address: "meta@example.com" }] });
    expect(shown.metadata).toEqual({ public_metadata: { role: "member" }, unsafe_metadata: { a: 1 } });
    expect(JSON.stringify(shown)).not.toContain("secret");
  });

  it("issues a JWT naming a session row with Hanko's claims; validate, /me and logout", async () => {
    const tenant = await createPublicTenant();
    const user = await createUserWithEmail(tenant, "alice@example.com");
    const token = await sessionFor(tenant, user, ["otp"]);
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      sub: user.id,
      aud: ["localhost"],
      amr: ["otp"],
      email: { address: "alice@example.com", is_primary: true, is_verified: true },
    });
    expect(claims.exp! - claims.iat!).toBe(3600);

    const valid = await (
      await publicCall(validate.GET, tenant, "GET", "/sessions/validate", { token })
    ).json();
    expect(valid).toMatchObject({
      is_valid: true,
      claims: { subject: user.id, session_id: claims.session_id, amr: ["otp"] },
      user_id: user.id,
    });
    expect(Date.parse(valid.claims.expiration)).toBe(claims.exp! * 1000);
    const byBody = await publicCall(validate.POST, tenant, "POST", "/sessions/validate", {
      body: { session_token: token },
    });
    expect((await byBody.json()).is_valid).toBe(true);

    const profile = await (await publicCall(me.GET, tenant, "GET", "/me", { cookie: token })).json();
    expect(profile).toMatchObject({
      id: user.id,
      user_id: user.id,
      emails: [{ address: "alice@example.com" }],
    });

    const out = await publicCall(logout.POST, tenant, "POST", "/logout", { cookie: token, origin: ORIGIN });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toMatch(
      /^hanko=; Path=\/t\/[0-9a-f-]+; HttpOnly; Max-Age=0; Secure; SameSite=Strict$/,
    );
    const after = await (
      await publicCall(validate.GET, tenant, "GET", "/sessions/validate", { token })
    ).json();
    expect(after).toEqual({ is_valid: false });
    expect((await publicCall(me.GET, tenant, "GET", "/me", { token })).status).toBe(401);
    const types = (await listAuditEvents(tenant.id, { limit: 10 })).items.map((event) => event.type);
    expect(types).toEqual(expect.arrayContaining(["session.created", "user.logged_out"]));
  });

  it("keeps at most the tenant's limit of sessions per user, oldest out", async () => {
    const tenant = await createPublicTenant({ platform: { session: { limit: 2 } } });
    const user = await createUserWithEmail(tenant);
    const first = await sessionFor(tenant, user);
    const second = await sessionFor(tenant, user);
    const third = await sessionFor(tenant, user);
    const isValid = async (token: string) =>
      (await (await publicCall(validate.GET, tenant, "GET", "/sessions/validate", { token })).json())
        .is_valid;
    expect([await isValid(first), await isValid(second), await isValid(third)]).toEqual([false, true, true]);
  });

  it("refuses tokens of another tenant, forged or garbled ones", async () => {
    const tenant = await createPublicTenant();
    const other = await createPublicTenant();
    const token = await sessionFor(other, await createUserWithEmail(other));
    for (const bad of [token, `${token}x`, "not-a-jwt"]) {
      const res = await publicCall(validate.GET, tenant, "GET", "/sessions/validate", { token: bad });
      expect(await res.json()).toEqual({ is_valid: false });
      const meRes = await publicCall(me.GET, tenant, "GET", "/me", { token: bad });
      expect(meRes.status).toBe(401);
      expect(await meRes.json()).toEqual({ code: 401, message: "Unauthorized" });
    }
  });

  it("verifies with the key the token's kid names: an earlier key's tokens stay valid, unknown kids are refused", async () => {
    const tenant = await createPublicTenant();
    const user = await createUserWithEmail(tenant);
    const before = await sessionFor(tenant, user);
    const rotated = await getTenant((await rotateSigningKey(tenant.id)).tenantId);
    const after = await sessionFor(rotated, user);
    for (const token of [before, after]) {
      const res = await publicCall(validate.GET, rotated, "GET", "/sessions/validate", { token });
      expect(await res.json()).toMatchObject({ is_valid: true, user_id: user.id });
    }
    // The same token with its header naming another key, a kid that is no key id, or none.
    const [, payload, signature] = before.split(".");
    for (const kid of [crypto.randomUUID(), "not-a-uuid", undefined]) {
      const header = Buffer.from(JSON.stringify({ alg: "ES256", typ: "JWT", ...(kid ? { kid } : {}) }));
      const token = `${header.toString("base64url")}.${payload}.${signature}`;
      const res = await publicCall(validate.GET, rotated, "GET", "/sessions/validate", { token });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ is_valid: false });
    }
  });

  it("refuses tokens signed with the tenant's own key but for another audience, issuer or without a session", async () => {
    const tenant = await createPublicTenant();
    const user = await createUserWithEmail(tenant);
    const good = decodeJwt(await sessionFor(tenant, user));
    const base = { subject: user.id, audience: ["localhost"], issuer: issuerOf(tenant), expiresIn: 600 };
    const forged = [
      await signToken(
        tenant.id,
        { session_id: good.session_id },
        { ...base, audience: ["elsewhere.example"] },
      ),
      await signToken(
        tenant.id,
        { session_id: good.session_id },
        { ...base, issuer: `${issuerOf(tenant)}x` },
      ),
      await signToken(tenant.id, {}, base),
      // The Passkey API's ceremony token of the same tenant (same key, its own issuer, no session).
      await signToken(
        tenant.id,
        { cred: "x" },
        { ...base, issuer: `http://localhost:3000/passkey/${tenant.id}` },
      ),
    ];
    for (const token of forged) {
      const res = await publicCall(validate.GET, tenant, "GET", "/sessions/validate", { token });
      expect(await res.json()).toEqual({ is_valid: false });
      expect((await publicCall(me.GET, tenant, "GET", "/me", { token })).status).toBe(401);
    }
  });

  it("refuses a cookie-carried logout from a foreign origin or without one (CSRF), not a Bearer one", async () => {
    const tenant = await createPublicTenant();
    const token = await sessionFor(tenant, await createUserWithEmail(tenant));
    for (const origin of ["https://evil.example", undefined]) {
      const res = await publicCall(logout.POST, tenant, "POST", "/logout", {
        cookie: token,
        ...(origin ? { origin } : {}),
      });
      expect(res.status).toBe(403);
      expect((await res.json()).code).toBe(403);
    }
    const stillValid = await publicCall(validate.GET, tenant, "GET", "/sessions/validate", { cookie: token });
    expect((await stillValid.json()).is_valid).toBe(true);
    expect((await publicCall(logout.DELETE, tenant, "DELETE", "/logout", { token })).status).toBe(204);
  });

  it("answers CORS with credentials for the tenant's origins only", async () => {
    const tenant = await createPublicTenant();
    const token = await sessionFor(tenant, await createUserWithEmail(tenant));
    const allowed = await publicCall(me.GET, tenant, "GET", "/me", { token, origin: ORIGIN });
    expect(allowed.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(allowed.headers.get("access-control-allow-credentials")).toBe("true");
    expect(allowed.headers.get("access-control-expose-headers")).toContain("X-Auth-Token");
    const foreign = await publicCall(me.GET, tenant, "GET", "/me", { token, origin: "https://evil.example" });
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await publicCall(me.OPTIONS, tenant, "OPTIONS", "/me", {
      origin: ORIGIN,
      headers: { "access-control-request-method": "DELETE" },
    });
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, DELETE, OPTIONS");
    expect(preflight.headers.get("access-control-allow-credentials")).toBe("true");
  });

  it("delivers the token as a cookie, or as X-Auth-Token in cross-domain mode, with lifetime and retention", async () => {
    const tenant = await createPublicTenant();
    const cookie = sessionHeaders(tenant, "jwt");
    expect(cookie.get("set-cookie")).toBe(
      `hanko=jwt; Path=/t/${tenant.id}; HttpOnly; Max-Age=3600; Secure; SameSite=Strict`,
    );
    expect(cookie.get("x-session-lifetime")).toBe("3600");
    expect(cookie.get("x-session-retention")).toBe("persistent");
    const cross = await updateTenant(tenant.id, { platform: { session: { crossDomain: true } } });
    const header = sessionHeaders(cross, "jwt");
    expect(header.get("x-auth-token")).toBe("jwt");
    expect(header.get("set-cookie")).toBeNull();
  });

  it("ends idle sessions when the tenant has an idle timeout", async () => {
    const tenant = await createPublicTenant({ platform: { session: { idleTimeoutSeconds: 60 } } });
    const user = await createUserWithEmail(tenant);
    const token = await sessionFor(tenant, user);
    const { executor } = await import("@/lib/db");
    const { sessions } = await import("@/lib/db/schema");
    const { eq, sql } = await import("drizzle-orm");
    const db = await executor();
    await db
      .update(sessions)
      .set({ lastUsedAt: sql`now() - interval '2 minutes'` })
      .where(eq(sessions.userId, user.id));
    expect((await publicCall(me.GET, tenant, "GET", "/me", { token })).status).toBe(401);
  });

  it("deletes the account only when the tenant allows it", async () => {
    const tenant = await createPublicTenant();
    const token = await sessionFor(tenant, await createUserWithEmail(tenant));
    const refused = await publicCall(me.DELETE, tenant, "DELETE", "/me", { token });
    expect(refused.status).toBe(403);
    const allowing = await updateTenant(tenant.id, { platform: { account: { allowDeletion: true } } });
    expect((await publicCall(me.DELETE, allowing, "DELETE", "/me", { token })).status).toBe(204);
    expect((await publicCall(me.GET, allowing, "GET", "/me", { token })).status).toBe(401);
  });
});

describe(".well-known", () => {
  it("serves the JWKS and the deprecated config with Deprecation and Link headers; gone in API version 3", async () => {
    const tenant = await createPublicTenant();
    const keys = await (await publicCall(jwks.GET, tenant, "GET", "/.well-known/jwks")).json();
    expect(keys.keys[0]).toMatchObject({ kty: "EC", alg: "ES256" });
    const res = await publicCall(config.GET, tenant, "GET", "/.well-known/config");
    expect(await res.json()).toMatchObject({
      password: { enabled: false, min_password_length: 8 },
      account: { allow_signup: true },
    });
    expect(res.headers.get("deprecation")).toBe("true");
    expect(res.headers.get("link")).toContain(`/t/${tenant.id}/login>; rel="successor-version"`);
    const v3 = await updateTenant(tenant.id, { platform: { apiVersion: 3 } });
    const gone = await publicCall(config.GET, v3, "GET", "/.well-known/config");
    expect(gone.status).toBe(404);
    expect((await gone.json()).code).toBe(404);
  });
});
