import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listAuditEvents } from "@/lib/audit";
import { getOAuthClient } from "@/lib/openid";
import { sesameInProcess as sesame } from "../helpers/cli";
import { discover, setUp, signIn } from "../helpers/openid";
import { createPublicTenant } from "../helpers/public-api";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-cli-oauth-"));

describe("npm run sesame -- oauth-client …", { timeout: 300_000 }, () => {
  it("creates (secret printed once), lists, updates, rotates and removes clients; refuses bad input", async () => {
    const tenant = await createPublicTenant();
    const created = await sesame(
      "oauth-client",
      "create",
      "--tenant",
      tenant.id,
      "--name",
      "Grafana",
      "--redirect-uri",
      "https://grafana.example.com/login/generic_oauth",
      "--grant-type",
      "authorization_code",
      "--grant-type",
      "refresh_token",
      "--first-party",
      "true",
    );
    expect(created.code, created.stderr).toBe(0);
    const clientId = /Created OAuth client (client_[0-9a-f]{32})/.exec(created.stdout)![1]!;
    const secret = /shown only now[^\n]*\n(\S+)\n/.exec(created.stdout)![1]!;
    expect(secret.length).toBeGreaterThanOrEqual(40);
    const stored = await getOAuthClient(tenant.id, clientId);
    expect(stored).toMatchObject({ name: "Grafana", firstParty: true, confidential: true });
    expect(JSON.stringify(stored)).not.toContain(secret);

    const listed = await sesame("oauth-client", "list", "--tenant", tenant.id, "--json");
    expect(listed.code, listed.stderr).toBe(0);
    const listing = JSON.parse(listed.stdout) as { clients: Record<string, unknown>[] };
    expect(listing.clients).toEqual([
      expect.objectContaining({ client_id: clientId, client_name: "Grafana", first_party: true }),
    ]);
    expect(listed.stdout).not.toContain(secret);
    const table = await sesame("oauth-client", "list", "--tenant", tenant.id);
    expect(table.stdout).toContain(clientId);

    const updated = await sesame(
      "oauth-client",
      "update",
      "--tenant",
      tenant.id,
      "--id",
      clientId,
      "--scope",
      "openid email",
      "--first-party",
      "false",
      "--json",
    );
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.parse(updated.stdout).client).toMatchObject({ scope: "openid email", first_party: false });

    const rotated = await sesame(
      "oauth-client",
      "rotate-secret",
      "--tenant",
      tenant.id,
      "--id",
      clientId,
      "--json",
    );
    expect(rotated.code, rotated.stderr).toBe(0);
    const { client_secret: next } = JSON.parse(rotated.stdout) as { client_secret: string };
    expect(next).not.toBe(secret);

    const removed = await sesame("oauth-client", "remove", "--tenant", tenant.id, "--id", clientId);
    expect(removed.code, removed.stderr).toBe(0);
    expect((await sesame("oauth-client", "remove", "--tenant", tenant.id, "--id", clientId)).code).toBe(1);

    const types = (await listAuditEvents(tenant.id, { limit: 100 })).items.map((event) => event.type);
    expect(types).toEqual(
      expect.arrayContaining([
        "oauth.client.created",
        "oauth.client.updated",
        "oauth.client.secret_rotated",
        "oauth.client.deleted",
      ]),
    );

    // Usage errors (2) and refusals of the domain (1); nothing is created.
    const create = (...options: string[]) =>
      sesame("oauth-client", "create", "--tenant", tenant.id, "--name", "Bad", ...options);
    expect((await sesame("oauth-client", "create", "--name", "x")).code).toBe(2);
    expect((await create()).code).toBe(1); // no redirect URI
    const http = await create("--redirect-uri", "http://app.example/cb");
    expect(http.code).toBe(1);
    expect(http.stderr).toMatch(/http only on loopback/);
    // The webhooks' SSRF guard on the back-channel logout URI (private addresses are not allowed here).
    const internal = await create(
      "--redirect-uri",
      "https://a.example/cb",
      "--backchannel-logout-uri",
      "https://10.0.0.7/logout",
    );
    expect(internal.code).toBe(1);
    expect(internal.stderr).toMatch(/backchannel_logout_uri: 10\.0\.0\.7 resolves to 10\.0\.0\.7, a private/);
    expect((await create("--redirect-uri", "https://a.example/cb", "--first-party", "maybe")).code).toBe(2);
    expect((await create("--redirect-uri", "https://a.example/cb", "--application-type", "tv")).code).toBe(2);
    expect(
      (await create("--redirect-uri", "https://a.example/cb", "--secret-file", "/nonexistent")).code,
    ).toBe(2);
    const weak = path.join(dataDir, "weak");
    fs.writeFileSync(weak, "short\n");
    const refused = await create("--redirect-uri", "https://a.example/cb", "--secret-file", weak);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/32 to 512/);
    expect(
      (await create("--redirect-uri", "https://a.example/cb", "--public", "--secret-file", weak)).code,
    ).toBe(2);
    expect((await sesame("oauth-client", "update", "--tenant", tenant.id, "--id", "client_x")).code).toBe(2);
    expect(
      (await sesame("oauth-client", "list", "--tenant", "00000000-0000-4000-8000-000000000000")).code,
    ).toBe(2);
    const after = await sesame("oauth-client", "list", "--tenant", tenant.id, "--json");
    expect(JSON.parse(after.stdout).clients).toEqual([]);
  });

  it("takes the secret from --secret-file (not printed), which then authenticates the client", async () => {
    const setup = await setUp();
    const file = path.join(dataDir, "secret");
    const chosen = `chosen-${"x".repeat(40)}`;
    fs.writeFileSync(file, `${chosen}\n`);
    const created = await sesame(
      "oauth-client",
      "create",
      "--tenant",
      setup.tenant.id,
      "--name",
      "From file",
      "--redirect-uri",
      "http://localhost:4000/callback",
      "--first-party",
      "true",
      "--secret-file",
      file,
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).not.toContain(chosen);
    const clientId = /Created OAuth client (client_[0-9a-f]{32})/.exec(created.stdout)![1]!;
    const config = await discover(setup.tenant, clientId, chosen);
    expect((await signIn({ ...setup, config })).access_token).toBeTruthy();

    const publicClient = await sesame(
      "oauth-client",
      "create",
      "--tenant",
      setup.tenant.id,
      "--name",
      "SPA",
      "--redirect-uri",
      "http://localhost:5173/cb",
      "--public",
      "--json",
    );
    expect(publicClient.code, publicClient.stderr).toBe(0);
    const body = JSON.parse(publicClient.stdout);
    expect(body.client.token_endpoint_auth_method).toBe("none");
    expect(body.client_secret).toBeUndefined();
    const rotate = await sesame(
      "oauth-client",
      "rotate-secret",
      "--tenant",
      setup.tenant.id,
      "--id",
      body.client.client_id,
    );
    expect(rotate.code).toBe(1);
    expect(rotate.stderr).toMatch(/public client has no secret/);
  });
});
