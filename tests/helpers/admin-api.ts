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
