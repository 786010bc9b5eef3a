export { defineContract, SURFACES, type Contract, type Surface } from "@/lib/contracts/contract";
export { checkFormFields, preflight, route, type RouteInput } from "./route";
export { authenticate } from "./auth";
export { MAX_BODY_BYTES, readFormBody } from "./body";
export { redirect, requestCookie, type RedirectCookie } from "./redirect";
export { presentError, presentFlowAnswer } from "./presenters";
export { json, noContent, pageJson } from "./responses";
export { sessionHeaders, withClearedSessionCookie, withSessionHeaders } from "./session-headers";
