import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { DOMParser } from "@xmldom/xmldom";
import * as xpath from "xpath";
import { AppError } from "@/lib/errors";
import { CallbackRefused, resolveCallback } from "@/lib/webhooks/ssrf";

/** What Sesame needs of an IdP's metadata. */
export interface IdpMetadata {
  entityId: string;
  /** The SingleSignOnService with the HTTP-Redirect binding. */
  ssoUrl: string;
  /** Signing certificates (PEM), `use="signing"` or without `use`. */
  certificates: string[];
}

/** Metadata documents are small; anything larger is refused rather than parsed. */
export const MAX_METADATA_BYTES = 512 * 1024;
const FETCH_TIMEOUT_MS = 10_000;

const REDIRECT_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";

const invalid = (detail: string) =>
  new AppError("VALIDATION_FAILED", undefined, { details: [`metadata: ${detail}`] });

const select = xpath.useNamespaces({
  md: "urn:oasis:names:tc:SAML:2.0:metadata",
  ds: "http://www.w3.org/2000/09/xmldsig#",
});

/** A DOM of `xml`, or undefined when it is not well-formed (xmldom reports instead of throwing). */
export function parseXml(xml: string): Document | undefined {
  let failed = false;
  const fail = () => {
    failed = true;
  };
  try {
    const document = new DOMParser({
      errorHandler: { warning: () => undefined, error: fail, fatalError: fail },
    }).parseFromString(xml, "text/xml") as unknown as Document;
    return failed || !document?.documentElement ? undefined : document;
  } catch {
    return undefined;
  }
}

function toPem(base64: string): string {
  const body = base64.replace(/\s+/g, "");
  const lines = body.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}

/**
 * Reads the entity id, the HTTP-Redirect SSO URL and the signing certificates of an IdP's metadata
 * (an EntityDescriptor, or the only one with an IDPSSODescriptor in an EntitiesDescriptor). Throws
 * VALIDATION_FAILED naming what is missing. No DTDs: xmldom does not fetch external entities.
 */
export function parseIdpMetadata(xml: string): IdpMetadata {
  if (xml.length > MAX_METADATA_BYTES) throw invalid(`larger than ${MAX_METADATA_BYTES} bytes`);
  if (/<!DOCTYPE/i.test(xml)) throw invalid("a DOCTYPE is not allowed");
  const document = parseXml(xml);
  if (!document) throw invalid("not well-formed XML");
  // An aggregate (a federation's metadata) names many IdPs: taking "the first" would trust whichever
  // comes first, so exactly one IdP is required.
  const descriptors = select(
    "//md:EntityDescriptor[md:IDPSSODescriptor]",
    document as unknown as Node,
  ) as Element[];
  if (descriptors.length > 1)
    throw invalid("an aggregate with more than one identity provider; give one IdP's metadata");
  const descriptor = descriptors[0];
  if (!descriptor) throw invalid("no EntityDescriptor with an IDPSSODescriptor");
  const entityId = descriptor.getAttribute("entityID")?.trim();
  if (!entityId) throw invalid("the EntityDescriptor has no entityID");
  const sso = select(
    `md:IDPSSODescriptor/md:SingleSignOnService[@Binding='${REDIRECT_BINDING}']/@Location`,
    descriptor,
    true,
  ) as Attr | undefined;
  const ssoUrl = sso?.value.trim();
  if (!ssoUrl) throw invalid("no SingleSignOnService with the HTTP-Redirect binding");
  try {
    const url = new URL(ssoUrl);
    if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error("scheme");
  } catch {
    throw invalid("the SingleSignOnService Location is not an http(s) URL");
  }
  const certificates = (
    select(
      "md:IDPSSODescriptor/md:KeyDescriptor[not(@use) or @use='signing']/ds:KeyInfo/ds:X509Data/ds:X509Certificate",
      descriptor,
    ) as Element[]
  )
    .map((node) => (node.textContent ?? "").replace(/\s+/g, ""))
    .filter((text) => /^[A-Za-z0-9+/=]+$/.test(text) && text.length > 100)
    .map(toPem);
  if (certificates.length === 0) throw invalid("no signing certificate (KeyDescriptor use=signing)");
  return { entityId, ssoUrl, certificates: [...new Set(certificates)] };
}

/**
 * Fetches metadata through the webhooks' SSRF guard: https only (http to loopback only with
 * SESAME_WEBHOOKS_ALLOW_PRIVATE=true), every resolved address public, and the connection made to the
 * address that was checked. No redirects are followed; the body is capped at MAX_METADATA_BYTES.
 */
export async function fetchMetadata(metadataUrl: string): Promise<string> {
  let target;
  try {
    target = await resolveCallback(metadataUrl);
  } catch (error) {
    if (error instanceof CallbackRefused) {
      throw new AppError("VALIDATION_FAILED", undefined, {
        details: [error.message.replace(/^callback:/, "metadata_url:")],
      });
    }
    throw error;
  }
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const fail = (detail: string) => reject(invalid(`could not fetch ${metadataUrl}: ${detail}`));
    const request = client.get(
      target.url,
      { lookup, headers: { accept: "application/samlmetadata+xml, application/xml, text/xml" } },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          fail(`HTTP ${response.statusCode}`);
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_METADATA_BYTES) {
            response.destroy();
            fail(`larger than ${MAX_METADATA_BYTES} bytes`);
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        response.on("error", (error) => fail(error.message));
      },
    );
    request.setTimeout(FETCH_TIMEOUT_MS, () => {
      request.destroy();
      fail("timed out");
    });
    request.on("error", (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
  });
}
