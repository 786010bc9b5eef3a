import type { Contract } from "@/lib/http/contract";
import * as status from "./status";
import * as emails from "./emails";
import * as credentials from "./credentials";
import * as passwords from "./passwords";
import * as otp from "./otp";
import * as sessions from "./sessions";

export * from "./status";
export * from "./emails";
export * from "./credentials";
export * from "./passwords";
export * from "./otp";
export * from "./sessions";

const isContract = (value: unknown): value is Contract =>
  typeof value === "object" && value !== null && "operationId" in value && "method" in value;

/**
 * Every admin API contract (surface "admin"), one module per resource, for its OpenAPI document.
 * Add each new contract module here.
 */
export const ADMIN_CONTRACTS: Contract[] = [status].flatMap((module) =>
  Object.values(module).filter(isContract),
);

// A user's emails, WebAuthn credentials, password, OTP and sessions; impersonation (POST /sessions).
ADMIN_CONTRACTS.push(
  ...[emails, credentials, passwords, otp, sessions].flatMap((module) =>
    Object.values(module).filter(isContract),
  ),
);
