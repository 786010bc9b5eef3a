import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sesameInProcess as sesame } from "../helpers/cli";

// The commands run in-process on the test file's database (tests/helpers/cli.ts); the folder holds the secret file.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-cli-thirdparty-"));
const SECRET = "cli-client-secret-value-0123456789";

describe("npm run sesame -- thirdparty", { timeout: 300_000 }, () => {
  it("adds, lists, updates and removes providers; secrets never printed; bad input explained", async () => {
    const created = await sesame(
      "tenant",
      "create",
      "--name",
      "Third Party Co",
      "--origin",
      "http://localhost:4000",
      "--json",
    );
    expect(created.code, created.stderr).toBe(0);
    const tenantId: string = JSON.parse(created.stdout).tenant.id;
    const secretFile = path.join(dataDir, "secret.txt");
    fs.writeFileSync(secretFile, `${SECRET}\n`);

    const added = await sesame(
      "thirdparty",
      "add",
      "--tenant",
      tenantId,
      "--kind",
      "github",
      "--client-id",
      "gh-client",
      "--client-secret-file",
      secretFile,
      "--allow-linking",
      "true",
      "--redirect-url",
      "https://app.example.com/auth",
      "--json",
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).not.toContain(SECRET);
    expect(JSON.parse(added.stdout).provider).toMatchObject({
      slug: "github",
      kind: "github",
      client_id: "gh-client",
      has_client_secret: true,
      allow_linking: true,
      allowed_redirect_urls: ["https://app.example.com/auth"],
      redirect_url: expect.stringContaining(`/t/${tenantId}/thirdparty/callback`),
    });

    const custom = await sesame(
      "thirdparty",
      "add",
      "--tenant",
      tenantId,
      "--kind",
      "oidc",
      "--slug",
      "acme",
      "--display-name",
      "Acme SSO",
      "--client-id",
      "acme",
      "--client-secret",
      SECRET,
      "--issuer",
      "https://idp.acme.example",
    );
    expect(custom.code, custom.stderr).toBe(0);
    expect(custom.stdout).toContain("Register this redirect URL at the provider");

    const listed = await sesame("thirdparty", "list", "--tenant", tenantId);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/acme\s+oidc\s+Acme SSO/);
    expect(listed.stdout).toMatch(/github\s+github\s+GitHub/);
    expect(listed.stdout).not.toContain(SECRET);

    const updated = await sesame(
      "thirdparty",
      "update",
      "--tenant",
      tenantId,
      "acme",
      "--enabled",
      "false",
      "--scope",
      "openid",
      "--json",
    );
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.parse(updated.stdout).provider).toMatchObject({
      enabled: false,
      scopes: ["openid"],
      has_client_secret: true,
    });

    // Domain refusals: exit 1 with the details; usage errors: exit 2.
    const missingIssuer = await sesame(
      "thirdparty",
      "add",
      "--tenant",
      tenantId,
      "--kind",
      "oidc",
      "--slug",
      "x",
      "--client-id",
      "x",
      "--client-secret",
      "s",
    );
    expect(missingIssuer.code).toBe(1);
    expect(missingIssuer.stderr).toMatch(/issuer: is required/);
    const taken = await sesame(
      "thirdparty",
      "add",
      "--tenant",
      tenantId,
      "--kind",
      "github",
      "--client-id",
      "x",
      "--client-secret",
      "s",
    );
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/exists/);
    const badFlag = await sesame("thirdparty", "update", "--tenant", tenantId, "acme", "--enabled", "maybe");
    expect(badFlag.code).toBe(2);
    const noKind = await sesame("thirdparty", "add", "--tenant", tenantId, "--client-id", "x");
    expect(noKind.code).toBe(2);
    const unknown = await sesame("thirdparty", "remove", "--tenant", tenantId, "nope");
    expect(unknown.code).toBe(1);

    const removed = await sesame("thirdparty", "remove", "--tenant", tenantId, "acme");
    expect(removed.code, removed.stderr).toBe(0);
    expect(
      JSON.parse((await sesame("thirdparty", "list", "--tenant", tenantId, "--json")).stdout).providers.map(
        (p: { slug: string }) => p.slug,
      ),
    ).toEqual(["github"]);
  });
});
