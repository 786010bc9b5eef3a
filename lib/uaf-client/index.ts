import { z } from "zod";
import { SoftwareUafAuthenticator, type RequestSummary } from "@/lib/ceremonies/uaf";

/**
 * The authenticator app's side of the out-of-band flow, over HTTP: read the QR code's URL, fetch the
 * UAF request with the out-of-band token, answer it with a software authenticator and post the
 * response back. Used by the CLI (`sesame authenticator …`), the `/examples/authenticator` page and
 * the tests; a real app does the same with keys in secure hardware.
 */

/** What the QR code holds: `<origin>/v1/uaf/app/requests/<id>?token=<token>`. */
export interface AppLink {
  url: string;
  origin: string;
  requestId: string;
}

const APP_PATH = /^\/v1\/uaf\/app\/requests\/([0-9a-f-]{36})$/i;

export class AppLinkError extends Error {
  override name = "AppLinkError";
}

/**
 * Reads a QR payload (the URL, possibly with surrounding whitespace); throws AppLinkError when it is not
 * one, or when `only.origin` is given and the link points elsewhere (a server opening links for others
 * must not fetch any host and port it is handed).
 */
export function parseAppLink(text: string, only: { origin?: string | undefined } = {}): AppLink {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new AppLinkError(
      "not a URL: expected the link from the QR code (…/v1/uaf/app/requests/<id>?token=…)",
    );
  }
  const id = APP_PATH.exec(url.pathname)?.[1];
  if (!/^https?:$/.test(url.protocol) || !id || !url.searchParams.get("token")) {
    throw new AppLinkError("not a Sesame request link: expected …/v1/uaf/app/requests/<id>?token=…");
  }
  if (only.origin !== undefined && url.origin !== only.origin) {
    throw new AppLinkError(`not a link of this Sesame: expected ${only.origin}/v1/uaf/app/requests/…`);
  }
  return { url: url.toString(), origin: url.origin, requestId: id.toLowerCase() };
}

export const appRequestSchema = z.object({
  id: z.string(),
  operation: z.enum(["REG", "AUTH", "DEREG"]),
  status: z.enum(["PENDING", "OK", "FAILED", "INVALIDATED"]),
  username: z.string(),
  validUntil: z.string(),
  relyingParty: z.object({ id: z.string(), name: z.string(), appId: z.string(), icon: z.string() }),
  request: z.string(),
  transaction: z.string().optional(),
  error: z.object({ code: z.number(), reason: z.string() }).optional(),
});
export type AppRequest = z.infer<typeof appRequestSchema>;

export class AppRequestError extends Error {
  override name = "AppRequestError";
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** How long one call may take before it counts as a network failure. */
export const DEFAULT_TIMEOUT_MS = 30_000;

async function exchange(
  link: AppLink,
  init: RequestInit,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<AppRequest> {
  const response = await fetch(link.url, {
    ...init,
    // A request link answers itself; a redirect would lead the app (or a server acting as one) elsewhere.
    redirect: "error",
    signal: AbortSignal.timeout(timeoutMs),
    headers: { accept: "application/json", ...(init.body ? { "content-type": "application/json" } : {}) },
  });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = body as { message?: string; messsage?: string } | undefined;
    throw new AppRequestError(
      response.status,
      `${response.status}: ${error?.message ?? error?.messsage ?? response.statusText}`,
    );
  }
  return appRequestSchema.parse(body);
}

export function fetchAppRequest(link: AppLink, timeoutMs?: number): Promise<AppRequest> {
  return exchange(link, { method: "GET" }, timeoutMs);
}

export interface DeviceKeyInfo {
  keyName?: string;
  deviceOs?: string;
  osVersion?: string;
  manufacturer?: string;
  model?: string;
  pushToken?: string;
  secret?: string;
}

export function answerAppRequest(
  link: AppLink,
  body: { uafResponse: string; deviceKeyInfo?: DeviceKeyInfo },
  timeoutMs?: number,
): Promise<AppRequest> {
  return exchange(link, { method: "PUT", body: JSON.stringify(body) }, timeoutMs);
}

export interface HandleOptions {
  deviceKeyInfo?: DeviceKeyInfo;
  /** Only links of this origin are opened (see parseAppLink). */
  origin?: string;
  /** Per HTTP call (default 30 s). */
  timeoutMs?: number;
  /**
   * Asked before answering, with what the request asks (operation, relying party, username,
   * transaction text). Return false to decline: nothing is sent and the request stays PENDING.
   */
  confirm?: (summary: RequestSummary, request: AppRequest) => boolean | Promise<boolean>;
}

export interface HandleResult {
  request: AppRequest;
  summary: RequestSummary;
  /** The request after the answer; absent when declined. */
  outcome?: AppRequest;
  /** DEREG: how many local keys were removed. */
  removed?: number;
}

/**
 * One scan: fetch, show, answer. REG creates a key, AUTH signs (confirming a transaction), DEREG
 * removes the named keys and acknowledges. The authenticator's state changes in place: persist it.
 */
export async function handleAppLink(
  authenticator: SoftwareUafAuthenticator,
  qrPayload: string,
  options: HandleOptions = {},
): Promise<HandleResult> {
  const link = parseAppLink(qrPayload, { origin: options.origin });
  const request = await fetchAppRequest(link, options.timeoutMs);
  const summary = authenticator.describe(request.request);
  if (request.operation !== "DEREG" && request.status !== "PENDING") {
    throw new AppRequestError(409, `the request is ${request.status}, not PENDING`);
  }
  if (options.confirm && !(await options.confirm(summary, request))) return { request, summary };
  if (request.operation === "DEREG") {
    const { removed } = authenticator.deregister(request.request);
    const outcome = await answerAppRequest(link, { uafResponse: "" }, options.timeoutMs);
    return { request, summary, outcome, removed };
  }
  const uafResponse =
    request.operation === "REG"
      ? authenticator.register(request.request)
      : authenticator.authenticate(request.request);
  const outcome = await answerAppRequest(
    link,
    {
      uafResponse,
      ...(request.operation === "REG" && options.deviceKeyInfo
        ? { deviceKeyInfo: options.deviceKeyInfo }
        : {}),
    },
    options.timeoutMs,
  );
  return { request, summary, outcome };
}
