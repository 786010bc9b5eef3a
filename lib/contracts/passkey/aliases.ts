import type { Contract } from "@/lib/contracts/contract";
import {
  registrationInitialize,
  registrationFinalize,
  loginInitialize,
  loginFinalize,
  mfaRegistrationInitialize,
  mfaRegistrationFinalize,
  mfaLoginInitialize,
  mfaLoginFinalize,
} from "./routes";

/** The spec's names for the ceremony routes (interface spec, platform table): same handlers, other paths. */
export function specAlias<C extends Contract>(contract: C, path: string, operationId: string): C {
  return { ...contract, path, operationId, summary: `${contract.summary} (spec path)` };
}

export const SPEC_ALIASES = {
  registrationInitialize: specAlias(
    registrationInitialize,
    "/{tenantId}/credentials/register/initialize",
    "initializeRegistrationSpecPath",
  ),
  registrationFinalize: specAlias(
    registrationFinalize,
    "/{tenantId}/credentials/register/finalize",
    "finalizeRegistrationSpecPath",
  ),
  loginInitialize: specAlias(
    loginInitialize,
    "/{tenantId}/credentials/login/initialize",
    "initializeLoginSpecPath",
  ),
  loginFinalize: specAlias(loginFinalize, "/{tenantId}/credentials/login/finalize", "finalizeLoginSpecPath"),
  mfaRegistrationInitialize: specAlias(
    mfaRegistrationInitialize,
    "/{tenantId}/credentials/mfa/register/initialize",
    "initializeMfaRegistrationSpecPath",
  ),
  mfaRegistrationFinalize: specAlias(
    mfaRegistrationFinalize,
    "/{tenantId}/credentials/mfa/register/finalize",
    "finalizeMfaRegistrationSpecPath",
  ),
  mfaLoginInitialize: specAlias(
    mfaLoginInitialize,
    "/{tenantId}/credentials/mfa/login/initialize",
    "initializeMfaLoginSpecPath",
  ),
  mfaLoginFinalize: specAlias(
    mfaLoginFinalize,
    "/{tenantId}/credentials/mfa/login/finalize",
    "finalizeMfaLoginSpecPath",
  ),
};
