import type { Contract } from "@/lib/contracts/contract";
import * as connectedApps from "./connected-apps";
import * as emails from "./emails";
import * as passcodes from "./passcodes";
import * as passwords from "./passwords";
import * as saml from "./saml";
import * as sessions from "./sessions";
import * as thirdParty from "./thirdparty";
import * as token from "./token";
import * as users from "./users";
import * as webauthn from "./webauthn";
import * as wellKnown from "./well-known";

const isContract = (value: unknown): value is Contract =>
  typeof value === "object" && value !== null && "operationId" in value && "method" in value;

/** Every public API contract, for its OpenAPI document. Add each new contract module here. */
export const PUBLIC_CONTRACTS: Contract[] = [
  sessions,
  wellKnown,
  passwords,
  webauthn,
  token,
  users,
  emails,
  passcodes,
  saml,
  thirdParty,
  connectedApps,
].flatMap((module) => Object.values(module).filter(isContract));
