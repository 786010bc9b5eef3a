import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sesameInProcess as sesame } from "../helpers/cli";
import { createTestIdp } from "@/tests/helpers/saml-idp";

// The commands run in-process on the test file's database (tests/helpers/cli.ts); the folder holds files.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-cli-saml-"));

describe("npm run sesame -- saml …", { timeout: 300_000 }, () => {
  it("adds, lists, updates and removes identity providers; refuses bad input", async () => {
    const idp = await createTestIdp({ entityId: "https://idp.cli.test/metadata" });
    const metadataFile = path.join(dataDir, "idp-metadata.xml");
    fs.writeFileSync(metadataFile, idp.metadataXml);

    const tenant = await sesame("tenant", "create", "--name", "SAML CLI", "--json");
    expect(tenant.code, tenant.stderr).toBe(0);
    const tenantId: string = JSON.parse(tenant.stdout).tenant.id;

    const added = await sesame(
      "saml",
      "add",
      "--tenant",
      tenantId,
      "--name",
      "Acme",
      "--domain",
      "acme.test",
      "--domain",
      "acme.example",
      "--metadata-file",
      metadataFile,
      "--email-attribute",
      "user.email",
      "--sign-requests",
      "true",
      "--json",
    );
    expect(added.code, added.stderr).toBe(0);
    const provider = JSON.parse(added.stdout).provider;
    expect(provider).toMatchObject({
      name: "Acme",
      domains: ["acme.test", "acme.example"],
      entityId: "https://idp.cli.test/metadata",
      attributeMapping: { email: "user.email" },
      signRequests: true,
    });

    const listed = await sesame("saml", "list", "--tenant", tenantId, "--json");
    expect(listed.code, listed.stderr).toBe(0);
    const listing = JSON.parse(listed.stdout);
    expect(listing.serviceProvider.acsUrl).toMatch(new RegExp(`/t/${tenantId}/saml/acs$`));
    expect(listing.providers.map((p: { id: string }) => p.id)).toEqual([provider.id]);

    const update = (...options: string[]) =>
      sesame("saml", "update", "--tenant", tenantId, "--id", provider.id, ...options);
    const updated = await update("--enabled", "false", "--json");
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.parse(updated.stdout).provider.enabled).toBe(false);
    const confirming = await update("--require-certificate-confirmation", "true", "--json");
    expect(confirming.code, confirming.stderr).toBe(0);
    expect(JSON.parse(confirming.stdout).provider.requireCertificateConfirmation).toBe(true);
    // Nothing is pending: nothing to confirm (refused by the domain), and a bad value is a usage error.
    const nothing = await update("--confirm-certificates", "true");
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(/no certificates are pending/);
    expect((await update("--confirm-certificates", "maybe")).code).toBe(2);

    // Bad input: usage errors (2), refused by the domain (1); nothing is added.
    expect((await sesame("saml", "add", "--name", "x")).code).toBe(2);
    expect((await sesame("saml", "list", "--tenant", "00000000-0000-4000-8000-000000000000")).code).toBe(2);
    expect(
      (
        await sesame(
          "saml",
          "add",
          "--tenant",
          tenantId,
          "--name",
          "B",
          "--domain",
          "b.test",
          "--metadata-file",
          metadataFile,
          "--sign-requests",
          "maybe",
        )
      ).code,
    ).toBe(2);
    const badDomain = await sesame(
      "saml",
      "add",
      "--tenant",
      tenantId,
      "--name",
      "B",
      "--domain",
      "not a domain",
      "--metadata-file",
      metadataFile,
    );
    expect(badDomain.code).toBe(1);
    expect(badDomain.stderr).toMatch(/domain/);
    const taken = await sesame(
      "saml",
      "add",
      "--tenant",
      tenantId,
      "--name",
      "B",
      "--domain",
      "acme.test",
      "--metadata-file",
      metadataFile,
    );
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/acme\.test/);
    const privateUrl = await sesame(
      "saml",
      "add",
      "--tenant",
      tenantId,
      "--name",
      "B",
      "--domain",
      "b.test",
      "--metadata-url",
      "https://10.1.2.3/metadata",
    );
    expect(privateUrl.code).toBe(1);
    expect(privateUrl.stderr).toMatch(/metadata_url/);
    expect((await sesame("saml", "update", "--tenant", tenantId, "--id", provider.id)).code).toBe(2);

    const removed = await sesame("saml", "remove", "--tenant", tenantId, "--id", provider.id, "--json");
    expect(removed.code, removed.stderr).toBe(0);
    expect((await sesame("saml", "remove", "--tenant", tenantId, "--id", provider.id)).code).toBe(1);
    expect(
      JSON.parse((await sesame("saml", "list", "--tenant", tenantId, "--json")).stdout).providers,
    ).toEqual([]);
  });
});
