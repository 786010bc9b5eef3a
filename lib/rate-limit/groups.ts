import type { PlatformSettings, Tenant } from "@/lib/tenants";
import { DEFAULT_PLATFORM_SETTINGS } from "@/lib/settings/defaults";

export type GroupLimit = PlatformSettings["rateLimits"][string];

/**
 * The limit of every endpoint group a contract may name in `rateLimit`, unless the tenant sets its own
 * (`platform.rateLimits`): the platform defaults (passcode, password) plus the other groups. A group
 * named by a contract must have a default here (a test checks), else its endpoints are not limited.
 */
export const GROUP_DEFAULTS: Readonly<Record<string, GroupLimit>> = {
  // POST /passcode/login/initialize|finalize, POST /password/login, PUT|POST /password: 10 a minute.
  ...DEFAULT_PLATFORM_SETTINGS.rateLimits,
  // POST /token (one-time token exchange): guessing a token is hopeless, but each try costs a lookup.
  token: { points: 10, durationSeconds: 60 },
  // POST /users (sign-up): bounds account creation and the mails it sends.
  signup: { points: 10, durationSeconds: 60 },
  // POST /user (user id by email): bounds account enumeration.
  user_lookup: { points: 10, durationSeconds: 60 },
  // POST /sessions/validate (backends): generous, so a backend validating per request is rarely slowed.
  session_validate: { points: 600, durationSeconds: 60 },
  // Every flow API request (starts and actions; a sign-up takes about six): bounds flow rows per client,
  // and the audit rows refused flow requests write.
  flow: { points: 300, durationSeconds: 60 },
  // Passkey logins started without an API key (discoverable on the Passkey API, every public
  // POST /webauthn/login/initialize): each stores a challenge and an audit row for nobody in particular.
  webauthn_login: { points: 60, durationSeconds: 60 },
  // Admin POST /webhooks/{id}/test and /webhooks/{id}/deliveries/{id}/replay: each queues a delivery
  // (an outbound request), so an admin key cannot turn Sesame into a request cannon.
  webhook: { points: 30, durationSeconds: 60 },
  // GET /saml/sso (each stores a request) and POST /saml/acs (each verifies XML signatures).
  saml: { points: 60, durationSeconds: 60 },
  // GET /thirdparty/{provider}, /thirdparty/auth and the callback: each start stores a state and asks the
  // provider's discovery document; each callback calls the provider's token endpoint.
  thirdparty: { points: 60, durationSeconds: 60 },
};

/** The tenant's limit for `group`, else the default; undefined when neither exists (not limited). */
export function limitFor(tenant: Tenant, group: string): GroupLimit | undefined {
  if (Object.hasOwn(tenant.platform.rateLimits, group)) return tenant.platform.rateLimits[group];
  return Object.hasOwn(GROUP_DEFAULTS, group) ? GROUP_DEFAULTS[group] : undefined;
}
