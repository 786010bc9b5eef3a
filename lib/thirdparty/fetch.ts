import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { CustomFetch } from "openid-client";
import { AppError } from "@/lib/errors";
import { webhookSettings } from "@/lib/webhooks/settings";
import { CallbackRefused, resolveCallback } from "@/lib/webhooks/ssrf";

/** A provider's answer is read up to this size (discovery, JWKS, tokens and user info are small). */
const MAX_RESPONSE_BYTES = 1024 * 1024;
const TIMEOUT_MS = 10_000;

/** Whether loopback and private peers may be called (`SESAME_WEBHOOKS_ALLOW_PRIVATE`, as webhooks). */
export function allowPrivatePeers(): boolean {
  return webhookSettings().allowPrivate;
}

/**
 * Every request to a provider (discovery, JWKS, token, user info) goes through the webhooks' SSRF guard:
 * https only, every address of the host public (loopback and private only with the development switch),
 * and the connection is made to the address that was checked, so DNS cannot answer differently later.
 * No redirect is followed.
 */
export const guardedFetch: CustomFetch = async (url, options) => {
  let target;
  try {
    target = await resolveCallback(url, allowPrivatePeers());
  } catch (error) {
    if (error instanceof CallbackRefused) {
      throw new AppError("THIRD_PARTY_PROVIDER_ERROR", undefined, {
        details: [error.message.replace(/^callback:/, "provider URL:")],
      });
    }
    throw error;
  }
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const body = await bodyBytes(options.body);
  const secure = target.url.protocol === "https:";
  return new Promise<Response>((resolve, reject) => {
    const request = (secure ? https : http).request(
      target.url,
      {
        method: options.method,
        lookup,
        headers: {
          ...options.headers,
          "user-agent": "Sesame",
          ...(body ? { "content-length": String(body.length) } : {}),
        },
        signal: options.signal,
        timeout: TIMEOUT_MS,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) {
            request.destroy(new Error("provider response too large"));
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
            else if (value !== undefined) headers.set(name, value);
          }
          const status = response.statusCode ?? 502;
          const nullBody = status === 204 || status === 304;
          resolve(new Response(nullBody ? null : Buffer.concat(chunks), { status, headers }));
        });
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error("provider request timed out")));
    request.on("error", reject);
    request.end(body);
  });
};

async function bodyBytes(body: Parameters<CustomFetch>[1]["body"]): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  return Buffer.from(await new Response(body).arrayBuffer());
}
