import type { AppError } from "@/lib/errors";
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

/** A flow's answer: its body with the status it names, plus the session it starts or ends. */
export function presentFlowAnswer(answer: FlowAnswer, tenant: Tenant): Response {
  const headers: Record<string, string> = {};
  const retry = answer.response.error?.code === "rate_limit_exceeded" ? answer.retryAfterSeconds : undefined;
  if (retry !== undefined) headers["retry-after"] = String(Math.max(1, Math.ceil(retry)));
  const response = json(answer.response, answer.response.status, headers);
  if (answer.session) return withSessionHeaders(response, tenant, answer.session.token);
  if (answer.endsSession) return withClearedSessionCookie(response, tenant);
  return response;
}
