import type { Contract } from "@/lib/http/contract";
import * as status from "./status";
import * as users from "./users";
import * as metadata from "./metadata";

export * from "./status";
export * from "./users";
export * from "./metadata";

const isContract = (value: unknown): value is Contract =>
  typeof value === "object" && value !== null && "operationId" in value && "method" in value;

/**
 * Every admin API contract (surface "admin"), one module per resource, for its OpenAPI document.
 * Add each new contract module here.
 */
export const ADMIN_CONTRACTS: Contract[] = [status].flatMap((module) =>
  Object.values(module).filter(isContract),
);

// Users and their metadata.
ADMIN_CONTRACTS.push(...[users, metadata].flatMap((module) => Object.values(module).filter(isContract)));
