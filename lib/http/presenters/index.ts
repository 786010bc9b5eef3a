import type { AppError } from "@/lib/errors";
import type { Surface } from "../contract";
import { presentAuthenticatorError } from "./authenticator";
import { presentPasskeyError } from "./passkey";
import { presentPlatformError } from "./platform";

export { toAppError } from "./normalize";

const PRESENTERS: Record<Surface, (error: AppError) => Response> = {
  authenticator: presentAuthenticatorError,
  passkey: presentPasskeyError,
  public: presentPlatformError,
  flow: presentPlatformError,
  admin: presentPlatformError,
  health: presentPlatformError,
};

/** The one mapping from an AppError to each surface's wire shape. */
export function presentError(surface: Surface, error: AppError): Response {
  return PRESENTERS[surface](error);
}
