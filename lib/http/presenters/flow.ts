import { getConfig } from "@/lib/config";
import type { AppError } from "@/lib/errors";
import type { FlowCookie } from "@/lib/flows/definition";
import { errorResponse, type FlowAnswer } from "@/lib/flows";
import { flowAnswerOf } from "@/lib/flows/errors";
import { withClearedSessionCookie, withSessionHeaders } from "../session-headers";
import type { Tenant } from "@/lib/tenants";
import { retryAfterHeader } from "./normalize";
import { json } from "../responses";

/** Flow API errors before a flow is reached (unknown tenant, malformed body): Hanko's flow error state. */
export function presentFlowError(error: AppError): Response {
  const { code, status } = flowAnswerOf(error);
  const body = errorResponse(code, status >= 500 ? "Something went wrong" : error.message);
  return json({ ...body, status }, status, retryAfterHeader(error));
}

/**
 * A cookie an action set (the third-party `state` cookie): HttpOnly and SameSite=Lax unless it says
 * `none`, so the provider's top-level redirect back to the callback carries it; Secure on https (and
 * always with SameSite=None, which browsers require).
 */
function flowCookieHeader(cookie: FlowCookie): string {
  const none = cookie.sameSite === "none";
  const secure = none || getConfig().baseUrl.startsWith("https:") ? "; Secure" : "";
  const sameSite = none ? "None" : "Lax";
  return `${cookie.name}=${cookie.value}; Path=${cookie.path}; Max-Age=${cookie.maxAgeSeconds}; HttpOnly; SameSite=${sameSite}${secure}`;
}

/** A flow's answer: its body with the status it names, plus the session it starts or ends. */
export function presentFlowAnswer(answer: FlowAnswer, tenant: Tenant): Response {
  const headers: Record<string, string> = {};
  const retry = answer.response.error?.code === "rate_limit_exceeded" ? answer.retryAfterSeconds : undefined;
  if (retry !== undefined) headers["retry-after"] = String(Math.max(1, Math.ceil(retry)));
  const response = json(answer.response, answer.response.status, headers);
  for (const cookie of answer.cookies ?? []) response.headers.append("set-cookie", flowCookieHeader(cookie));
  if (answer.session) return withSessionHeaders(response, tenant, answer.session.token);
  if (answer.endsSession) return withClearedSessionCookie(response, tenant);
  return response;
}
