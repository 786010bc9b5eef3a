import { generateKeyPairSync } from "node:crypto";
import { importSPKI, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { seal } from "@/lib/crypto";
import type { ThirdPartyProviderRow } from "@/lib/db/schema";
import { appleClientSecret } from "./client";
import { APPLE_KEY_PURPOSE, sealContext } from "./providers";

describe("appleClientSecret", () => {
  it("is an ES256 JWT of the team for the client, with the key's id, valid a few minutes", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const row = {
      tenantId: "00000000-0000-4000-8000-000000000001",
      slug: "apple",
      clientId: "com.example.web",
    };
    const options = {
      teamId: "TEAM123456",
      keyId: "KEY1234567",
      privateKeySealed: seal(pem, APPLE_KEY_PURPOSE, sealContext(row.tenantId, row.slug)),
    };
    const jwt = await appleClientSecret(row as ThirdPartyProviderRow, options, "https://appleid.apple.com");
    const spki = await importSPKI(publicKey.export({ type: "spki", format: "pem" }).toString(), "ES256");
    const { payload, protectedHeader } = await jwtVerify(jwt, spki, {
      issuer: "TEAM123456",
      subject: "com.example.web",
      audience: "https://appleid.apple.com",
    });
    expect(protectedHeader).toEqual({ alg: "ES256", kid: "KEY1234567" });
    expect(payload.exp! - payload.iat!).toBe(300);
    // The sealed key is bound to its row: another slug cannot open it.
    await expect(
      appleClientSecret(
        { ...row, slug: "other" } as ThirdPartyProviderRow,
        options,
        "https://appleid.apple.com",
      ),
    ).rejects.toThrow();
  });
});
