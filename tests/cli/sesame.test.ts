import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createTestAttestationCa } from "@/lib/ceremonies/uaf";
import { sesameInProcess as sesame } from "../helpers/cli";

const TSX = path.resolve("node_modules/.bin/tsx");
// On PGlite every run gets its own data folder; on Postgres the suite's DATABASE_URL is inherited.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-cli-"));

function sesameProcess(...args: string[]) {
  const result = spawnSync(TSX, ["cli/sesame.ts", ...args], {
    encoding: "utf8",
    env: { ...process.env, SESAME_DATA_DIR: dataDir, LOG_LEVEL: "warn" },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

// The commands run in this process against the test file's database (tests/helpers/cli.ts): a fresh tsx
// process costs 3–5 s of CPU, and the stories below run thirty commands. The last test runs the real
// entry as its own process, on its own embedded database (or the suite's Postgres).
describe("npm run sesame", { timeout: 300_000 }, () => {
  it("manages tenants, API keys and signing keys end to end", async () => {
    const created = await sesame(
      "tenant",
      "create",
      "--name",
      "CLI Co",
      "--origin",
      "http://localhost:4000",
      "--brand-name",
      "CLI Co Login",
      "--brand-color",
      "#FF6600",
      "--brand-background",
      "#fafafa",
      "--logo-url",
      "https://cdn.cli.test/logo.svg",
      "--json",
    );
    expect(created.code, created.stderr).toBe(0);
    // Exactly one JSON object, so scripts can parse stdout as it is.
    const output = JSON.parse(created.stdout);
    expect(Object.keys(output)).toEqual(["tenant", "keys"]);
    expect(output.tenant).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: "CLI Co" });
    expect(output.keys).toEqual({
      admin: expect.stringMatching(/^sesame_admin_[\w-]{43}$/),
      passkey: expect.stringMatching(/^sesame_passkey_[\w-]{43}$/),
      authenticator: expect.stringMatching(/^sesame_authenticator_[\w-]{43}$/),
    });
    const tenantId: string = output.tenant.id;

    const listed = JSON.parse((await sesame("tenant", "list", "--json")).stdout);
    expect(listed.tenants).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: tenantId,
          rpId: "localhost",
          origins: ["http://localhost:4000"],
          branding: {
            displayName: "CLI Co Login",
            primaryColor: "#ff6600",
            backgroundColor: "#fafafa",
            textColor: "#0f172a",
            logoUrl: "https://cdn.cli.test/logo.svg",
          },
        }),
      ]),
    );

    const updated = await sesame("tenant", "update", tenantId, "--session-lifetime", "7200", "--json");
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.parse(updated.stdout).tenant.sessionLifetimeSeconds).toBe(7200);

    // WebAuthn policies merge field by field; a wrong value names the field and changes nothing.
    const policy = await sesame(
      "tenant",
      "update",
      tenantId,
      "--user-verification",
      "preferred",
      "--attachment",
      "platform",
      "--mfa-attestation",
      "none",
      "--json",
    );
    expect(policy.code, policy.stderr).toBe(0);
    const withPolicy = JSON.parse(policy.stdout).tenant;
    expect(withPolicy.passkeyPolicy).toEqual({
      userVerification: "preferred",
      attestation: "direct",
      residentKey: "required",
      attachment: "platform",
    });
    expect(withPolicy.mfaPolicy).toMatchObject({ attestation: "none", attachment: "cross-platform" });
    const badPolicy = await sesame("tenant", "update", tenantId, "--attestation", "always");
    expect(badPolicy.code).toBe(1);
    expect(badPolicy.stderr).toContain("tenant.passkeyPolicy.attestation");

    // UAF settings merge field by field too; each repeatable option replaces its list, `none` empties it.
    const rootPem = createTestAttestationCa({
      notBefore: new Date(Date.now() - 86_400_000),
      notAfter: new Date(Date.now() + 86_400_000),
    }).root.pem;
    const rootFile = path.join(dataDir, "root.pem");
    fs.writeFileSync(rootFile, rootPem);
    const uaf = await sesame(
      "tenant",
      "update",
      tenantId,
      "--uaf-facet",
      "android:apk-key-hash:2jmj7l5rSw0yVb_vlWAYkK_YBwk",
      "--uaf-facet",
      "https://app.cli.test",
      "--uaf-trusted-root",
      rootFile,
      "--uaf-aaid",
      "ffff#5e5a",
      "--uaf-test-authenticators",
      "true",
      "--json",
    );
    expect(uaf.code, uaf.stderr).toBe(0);
    expect(JSON.parse(uaf.stdout).tenant.uaf).toEqual({
      appId: "",
      facetIds: ["android:apk-key-hash:2jmj7l5rSw0yVb_vlWAYkK_YBwk", "https://app.cli.test"],
      trustedRoots: [expect.stringContaining("-----BEGIN CERTIFICATE-----")],
      allowSurrogate: true,
      acceptedAaids: ["FFFF#5E5A"],
      allowTestAuthenticators: true,
    });
    const merged = await sesame(
      "tenant",
      "update",
      tenantId,
      "--uaf-allow-surrogate",
      "false",
      "--uaf-aaid",
      "none",
      "--json",
    );
    expect(merged.code, merged.stderr).toBe(0);
    expect(JSON.parse(merged.stdout).tenant.uaf).toMatchObject({
      facetIds: ["android:apk-key-hash:2jmj7l5rSw0yVb_vlWAYkK_YBwk", "https://app.cli.test"],
      allowSurrogate: false,
      acceptedAaids: [],
      allowTestAuthenticators: true,
    });
    const badUaf = await sesame("tenant", "update", tenantId, "--uaf-app-id", "http://cli.test/facets");
    expect(badUaf.code).toBe(1);
    expect(badUaf.stderr).toContain("tenant.uaf.appId");

    // Public API settings merge section by section; each --rate-limit sets one endpoint group.
    const platform = await sesame(
      "tenant",
      "update",
      tenantId,
      "--rate-limit",
      "passcode=3/30",
      "--rate-limit",
      "session_validate=5/60",
      "--api-version",
      "3",
      "--session-limit",
      "2",
      "--cookie-same-site",
      "lax",
      "--cookie-domain",
      ".cli.test",
      "--password-enabled",
      "true",
      "--allow-deletion",
      "true",
      "--passkeys-optional",
      "true",
      "--username-enabled",
      "true",
      "--username-max-length",
      "20",
      "--mfa-totp",
      "false",
      "--json",
    );
    expect(platform.code, platform.stderr).toBe(0);
    const withPlatform = JSON.parse(platform.stdout).tenant.platform;
    expect(withPlatform).toMatchObject({
      apiVersion: 3,
      session: { limit: 2, cookie: { name: "hanko", sameSite: "lax", domain: ".cli.test" } },
      password: { enabled: true, minLength: 8 },
      account: { allowSignup: true, allowDeletion: true },
      passkeys: { enabled: true, optional: true },
      passcodes: { enabled: true },
      username: { enabled: true, required: false, minLength: 3, maxLength: 20 },
      mfa: { enabled: true, totp: false, securityKeys: true },
    });
    expect(withPlatform.rateLimits).toEqual({
      passcode: { points: 3, durationSeconds: 30 },
      password: { points: 10, durationSeconds: 60 },
      session_validate: { points: 5, durationSeconds: 60 },
    });
    const remerged = await sesame(
      "tenant",
      "update",
      tenantId,
      "--rate-limit",
      "password=20/120",
      "--cookie-domain",
      "none",
      "--json",
    );
    expect(remerged.code, remerged.stderr).toBe(0);
    const afterMerge = JSON.parse(remerged.stdout).tenant.platform;
    expect(afterMerge.rateLimits).toMatchObject({
      passcode: { points: 3, durationSeconds: 30 },
      password: { points: 20, durationSeconds: 120 },
    });
    expect(afterMerge.session.cookie).toMatchObject({ sameSite: "lax", domain: null });
    expect(afterMerge.apiVersion).toBe(3);
    const badFormat = await sesame("tenant", "update", tenantId, "--rate-limit", "passcode=ten/60");
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toContain("--rate-limit passcode=ten/60: expected <group>=<points>/<seconds>");
    const badLimit = await sesame("tenant", "update", tenantId, "--rate-limit", "passcode=0/60");
    expect(badLimit.code).toBe(1);
    expect(badLimit.stderr).toContain("tenant.platform.rateLimits.passcode.points");

    // Hosted page branding (set at creation above) merges field by field; `none` clears the logo.
    const rebranded = await sesame(
      "tenant",
      "update",
      tenantId,
      "--brand-text-color",
      "#111827",
      "--logo-url",
      "none",
      "--json",
    );
    expect(rebranded.code, rebranded.stderr).toBe(0);
    expect(JSON.parse(rebranded.stdout).tenant.branding).toEqual({
      displayName: "CLI Co Login",
      primaryColor: "#ff6600",
      backgroundColor: "#fafafa",
      textColor: "#111827",
      logoUrl: null,
    });
    const badColour = await sesame(
      "tenant",
      "update",
      tenantId,
      "--brand-color",
      "orange",
      "--logo-url",
      "http://x.test/l.png",
    );
    expect(badColour.code).toBe(1);
    expect(badColour.stderr).toContain(
      "tenant.branding.primaryColor: must be a colour in hex notation: # and six hex digits",
    );
    expect(badColour.stderr).toContain("tenant.branding.logoUrl: must be an https URL");

    const refused = await sesame("tenant", "update", tenantId, "--passcode-ttl", "900", "--name", "Renamed");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("tenant.passcodeTtlSeconds: must be at most 600 seconds");
    const after = JSON.parse((await sesame("tenant", "list", "--json")).stdout).tenants.find(
      (t: { id: string }) => t.id === tenantId,
    );
    expect(after).toMatchObject({ name: "CLI Co", passcodeTtlSeconds: 300 });

    const key = await sesame(
      "key",
      "create",
      "--tenant",
      tenantId,
      "--scope",
      "admin",
      "--scope",
      "passkey",
      "--json",
    );
    expect(key.code, key.stderr).toBe(0);
    const { key: info, secret } = JSON.parse(key.stdout);
    expect(secret).toMatch(/^sesame_key_/);
    expect(info.scopes).toEqual(["admin", "passkey"]);

    const revoked = await sesame("key", "revoke", "--tenant", tenantId, info.id, "--json");
    expect(revoked.code, revoked.stderr).toBe(0);
    const keys = JSON.parse((await sesame("key", "list", "--tenant", tenantId, "--json")).stdout).keys;
    expect(keys).toHaveLength(4);
    expect(keys.find((k: { id: string }) => k.id === info.id).revokedAt).not.toBeNull();
    expect(JSON.stringify(keys)).not.toContain(secret);

    const rotated = await sesame(
      "signing-key",
      "rotate",
      "--tenant",
      tenantId,
      "--algorithm",
      "EdDSA",
      "--json",
    );
    expect(rotated.code, rotated.stderr).toBe(0);
    const jwks = JSON.parse((await sesame("signing-key", "list", "--tenant", tenantId, "--json")).stdout);
    expect(jwks.keys.map((k: { alg: string }) => k.alg)).toEqual(["EdDSA", "RS256"]);
  });

  it("explains usage errors with exit code 2 and domain errors with exit code 1", async () => {
    const unknown = await sesame("tenant", "explode");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Usage: npm run sesame -- <command>");

    const missing = await sesame("tenant", "create");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--name is required");

    const badOption = await sesame("key", "list", "--tenant", "x", "--bogus");
    expect(badOption.code).toBe(2);

    const notFound = await sesame("key", "list", "--tenant", "00000000-0000-4000-8000-000000000000");
    expect(notFound.code).toBe(1);
    expect(notFound.stderr).toContain("Tenant not found");
  });

  it("creates, lists, recovers and removes console operators", async () => {
    const email = `op-${Date.now()}@cli.test`;
    const created = await sesame("operator", "create", "--email", email, "--role", "viewer", "--json");
    expect(created.code, created.stderr).toBe(0);
    const { operator, enrolment } = JSON.parse(created.stdout);
    expect(operator).toMatchObject({ email, role: "viewer", tenantIds: [] });
    // A one-time link whose token rides in the fragment, valid 30 minutes.
    expect(enrolment.url).toMatch(/^http:\/\/localhost:\d+\/console\/enroll#[A-Za-z0-9_-]{43}$/);
    expect(new Date(enrolment.expiresAt).getTime() - Date.now()).toBeGreaterThan(29 * 60_000);

    const recovered = await sesame("operator", "recover", "--email", email);
    expect(recovered.code, recovered.stderr).toBe(0);
    expect(recovered.stdout).toMatch(/\/console\/enroll#[A-Za-z0-9_-]{43}/);
    expect(recovered.stdout).not.toContain(enrolment.url);

    const removed = await sesame("operator", "remove", "--email", email);
    expect(removed.code, removed.stderr).toBe(0);
    const listed = JSON.parse((await sesame("operator", "list", "--json")).stdout);
    expect(listed.operators.map((o: { email: string }) => o.email)).not.toContain(email);

    const badRole = await sesame("operator", "create", "--email", "x@cli.test", "--role", "root");
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain("--role must be one of owner, admin, viewer");
  });

  it("runs as its own process: a tenant created by one command is listed by the next, exit codes kept", () => {
    const created = sesameProcess("tenant", "create", "--name", "Process Co", "--json");
    expect(created.code, created.stderr).toBe(0);
    const tenantId: string = JSON.parse(created.stdout).tenant.id;
    const listed = sesameProcess("tenant", "list", "--json");
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).tenants.map((t: { id: string }) => t.id)).toContain(tenantId);
    const usage = sesameProcess("tenant", "explode");
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Usage: npm run sesame -- <command>");
  });

  it("prints help", async () => {
    const help = await sesame("--help");
    expect(help.code).toBe(0);
    expect(help.stdout + help.stderr).toContain("tenant create --name <name>");
  });
});
