// @peculiar/x509 resolves its crypto provider through tsyringe, which needs the Reflect metadata polyfill.
import "reflect-metadata";
import { createPrivateKey, randomBytes, webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";
import { seal, unseal } from "@/lib/crypto";
import { insertServiceProviderKey, selectServiceProviderKey } from "./store";

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const PURPOSE = "saml-sp-key";
const ALGORITHM = {
  name: "RSASSA-PKCS1-v1_5",
  hash: "SHA-256",
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};

export interface KeyPair {
  /** PKCS#8 PEM. */
  privateKey: string;
  /** X.509 PEM. */
  certificate: string;
}

/**
 * A fresh RSA-2048 key and a self-signed certificate for it (10 years: IdPs pin the certificate from
 * our metadata, so it should outlive the configuration; it proves nothing beyond the key).
 */
export async function createSelfSignedKeyPair(commonName: string): Promise<KeyPair> {
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ["sign", "verify"]);
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(8)
      .toString("hex")
      .replace(/^[89a-f]/, "1"),
    name: `CN=${commonName.replace(/[,=+<>#;"\\]/g, "_")}`,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 10 * 365 * 86_400_000),
    signingAlgorithm: ALGORITHM,
    keys: keys as unknown as CryptoKeyPair,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey("pkcs8", keys.privateKey));
  const privateKey = createPrivateKey({ key: pkcs8, format: "der", type: "pkcs8" })
    .export({ format: "pem", type: "pkcs8" })
    .toString();
  return { privateKey, certificate: certificate.toString("pem") };
}

/**
 * The tenant's SP key pair, made on first use. Two instances racing on the first use both generate a key,
 * both insert with ON CONFLICT DO NOTHING, and both read back the one row that won.
 */
export async function serviceProviderKeys(tenantId: string): Promise<KeyPair> {
  let row = await selectServiceProviderKey(tenantId);
  if (!row) {
    const created = await createSelfSignedKeyPair(`Sesame SAML SP ${tenantId}`);
    await insertServiceProviderKey({
      tenantId,
      privateKeySealed: seal(created.privateKey, PURPOSE, tenantId),
      certificate: created.certificate,
    });
    row = await selectServiceProviderKey(tenantId);
    if (!row) throw new Error("the SAML service provider key was not stored");
  }
  return { privateKey: unseal(row.privateKeySealed, PURPOSE, tenantId), certificate: row.certificate };
}
