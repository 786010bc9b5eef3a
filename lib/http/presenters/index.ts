import type { AppError } from "@/lib/errors";
import type { Surface } from "@/lib/contracts/contract";
import { presentAuthenticatorError } from "./authenticator";
import { presentFlowError } from "./flow";
import { presentPasskeyError } from "./passkey";
import { presentPlatformError } from "./platform";

export { toAppError } from "./normalize";
export { presentFlowAnswer } from "./flow";

const PRESENTERS: Record<Surface, (error: AppError) => Response> = {
  authenticator: presentAuthenticatorError,
  passkey: presentPasskeyError,
  public: presentPlatformError,
  flow: presentFlowError,
  admin: presentPlatformError,
  health: presentPlatformError,
};

/** The one mapping from an AppError to each surface's wire shape. */
export function presentError(surface: Surface, error: AppError): Response {
  return PRESENTERS[surface](error);
}
