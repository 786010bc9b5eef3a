import { expect } from "vitest";
import { call, type CallOptions } from "./http";

type Handler = Parameters<typeof call>[0];

/**
 * Calls an admin API route handler with `Authorization: Bearer <key>`; `params` must name every path
 * parameter (tenantId included), as Next.js passes them.
 */
export function adminCall(
  handler: Handler,
  path: string,
  key: string | undefined,
  options: Omit<CallOptions, "headers"> & { headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...options.headers };
  return call(handler, path, { ...options, headers });
}

/** An admin API error: the status, exactly `{code, message}` with `code` the status, the message matching. */
export async function expectPlatformError(res: Response, status: number, message?: RegExp) {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  const body = JSON.parse(text) as { code: number; message: string };
  expect(Object.keys(body).sort()).toEqual(["code", "message"]);
  expect(body.code).toBe(status);
  if (message) expect(body.message).toMatch(message);
}
