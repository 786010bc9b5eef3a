import type { Contract } from "@/lib/http/contract";
import * as sessions from "./sessions";
import * as wellKnown from "./well-known";

const isContract = (value: unknown): value is Contract =>
  typeof value === "object" && value !== null && "operationId" in value && "method" in value;

/** Every public API contract, for its OpenAPI document. Add each new contract module here. */
export const PUBLIC_CONTRACTS: Contract[] = [sessions, wellKnown].flatMap((module) =>
  Object.values(module).filter(isContract),
);
