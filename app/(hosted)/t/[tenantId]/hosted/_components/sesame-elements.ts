"use client";

import type { AuthSuccessDetail, RegisterOptions, SesameClient } from "@/elements/sesame-elements";
import type { HostedLang } from "@/lib/hosted/lang";

export type { SesameClient };
/** `detail` of `sesame-auth-success`. */
export type SesameAuthSuccess = AuthSuccessDetail;

/** The Sesame elements bundle (ES module), built from elements/ and served by Sesame itself. */
export const SESAME_ELEMENTS_URL = "/elements/v1/sesame-elements.js";

interface SesameElementsModule {
  register(apiUrl: string, options?: RegisterOptions): Promise<{ sesame: SesameClient }>;
}

/** Thrown when the bundle cannot be loaded (missing, not a module, no `register`). */
export class ElementsUnavailable extends Error {
  override name = "ElementsUnavailable";
}

// The elements register once per page: custom elements cannot be defined twice. Keyed by the tenant URL;
// hosted pages link to each other with full page loads, so one page only ever sees one tenant.
const registrations = new Map<string, Promise<{ sesame: SesameClient }>>();

/** Loads the bundle and registers `<sesame-auth>` and `<sesame-profile>` for the tenant at `apiUrl`. */
export function registerSesameElements(apiUrl: string, lang: HostedLang): Promise<{ sesame: SesameClient }> {
  let registration = registrations.get(apiUrl);
  if (!registration) {
    const url: string = SESAME_ELEMENTS_URL;
    registration = (
      import(/* webpackIgnore: true */ /* turbopackIgnore: true */ url) as Promise<
        Partial<SesameElementsModule>
      >
    )
      .catch((error: unknown) => {
        throw new ElementsUnavailable(`${url}: ${(error as Error)?.message ?? String(error)}`);
      })
      .then((elements) => {
        if (typeof elements.register !== "function")
          throw new ElementsUnavailable(`${url} does not export register()`);
        return elements.register(apiUrl, { lang });
      })
      .catch((error: unknown) => {
        registrations.delete(apiUrl);
        throw error;
      });
    registrations.set(apiUrl, registration);
  }
  return registration;
}

// One logout per tenant and page load, also under React's development double effects.
const logouts = new Map<string, Promise<void>>();

export function logoutOnce(apiUrl: string, sesame: SesameClient): Promise<void> {
  let logout = logouts.get(apiUrl);
  if (!logout) {
    logout = sesame.logout().catch((error: unknown) => {
      logouts.delete(apiUrl);
      throw error;
    });
    logouts.set(apiUrl, logout);
  }
  return logout;
}

/** The tenant URL the elements talk to: `<origin>/t/{tenant_id}` (public and flow API). */
export function tenantApiUrl(tenantId: string): string {
  return `${window.location.origin}/t/${tenantId}`;
}
