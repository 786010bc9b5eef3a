import type { Contract } from "@/lib/contracts/contract";
import * as auditLogs from "./audit-logs";
import * as credentials from "./credentials";
import * as emails from "./emails";
import * as otp from "./otp";
import * as passwords from "./passwords";
import * as saml from "./saml";
import * as sessions from "./sessions";
import * as status from "./status";
import * as users from "./users";
import * as thirdParty from "./thirdparty";
import * as webhooks from "./webhooks";
import * as metadata from "./metadata";
import * as oauthClients from "./oauth-clients";

export * from "./audit-logs";
export * from "./credentials";
export * from "./emails";
export * from "./otp";
export * from "./pagination";
export * from "./passwords";
export * from "./saml";
export * from "./sessions";
export * from "./status";
export * from "./users";
export * from "./thirdparty";
export * from "./webhooks";
export * from "./metadata";
export * from "./oauth-clients";

const isContract = (value: unknown): value is Contract =>
  typeof value === "object" && value !== null && "operationId" in value && "method" in value;

/**
 * Every admin API contract (surface "admin"), one module per resource, for its OpenAPI document.
 * Add each new contract module here.
 */
export const ADMIN_CONTRACTS: Contract[] = [
  status,
  emails,
  credentials,
  passwords,
  otp,
  sessions,
  auditLogs,
  users,
  metadata,
  webhooks,
  saml,
  thirdParty,
  oauthClients,
].flatMap((module) => Object.values(module).filter(isContract));
