/**
 * Webhook event names: Hanko's hierarchy (backend/webhooks/events/events.go) plus the spec's aliases.
 * A subscription names an event or a prefix of one on a dot boundary (`user` receives `user.create` and
 * `user.update.email.primary`); an alias subscription receives its canonical event (and its children).
 */
export const WEBHOOK_EVENTS = [
  "user",
  "user.login",
  "user.create",
  "user.update",
  "user.update.email",
  "user.update.email.create",
  "user.update.email.primary",
  "user.update.email.delete",
  "user.update.username",
  "user.update.username.create",
  "user.update.username.delete",
  "user.update.username.update",
  "user.update.password.update",
  "user.delete",
  "email.send",
  "session",
  "session.create",
  "session.create.flow",
  "session.create.admin",
  "session.delete",
  "session.delete.explicit",
  "session.delete.explicit.logout",
  "session.delete.explicit.revoke",
  "session.delete.admin",
  "session.delete.admin.revoke",
  "session.delete.passive",
  "session.delete.passive.expire",
  "session.delete.passive.limit",
  // Sesame's own (not Hanko's): a SAML identity provider's signing certificates changed (docs/webhooks.md).
  "saml_provider",
  "saml_provider.certificate_changed",
  // Sesame's own: the OpenID Provider's clients and the users' consents to them (docs/webhooks.md).
  "oauth_client",
  "oauth_client.create",
  "oauth_client.update",
  "oauth_client.delete",
  "oauth_client.secret_rotate",
  "oauth_consent",
  "oauth_consent.grant",
  "oauth_consent.revoke",
] as const;

/**
 * The spec's names. Hanko lists `user.login` but never emits it: here it is the subscription name for a
 * login, i.e. a session issued by a flow. Aliases are subscription names only: events are emitted under
 * their canonical name (the body's `event` and the token's `evt`).
 */
export const WEBHOOK_EVENT_ALIASES: Record<string, string> = {
  "user.created": "user.create",
  "user.login": "session.create.flow",
  "user.logout": "session.delete.explicit.logout",
};

/** Sent only by `POST /webhooks/{id}/test`, to that endpoint whatever it subscribes to. */
export const TEST_EVENT = "webhook.test";

/** Every name a subscription may use. */
export const SUBSCRIBABLE_EVENTS: readonly string[] = [
  ...new Set([...WEBHOOK_EVENTS, ...Object.keys(WEBHOOK_EVENT_ALIASES)]),
];

/** Events the domain emits (leaves of the hierarchy that Sesame fires). */
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number] | typeof TEST_EVENT;

export function isSubscribableEvent(name: string): boolean {
  return SUBSCRIBABLE_EVENTS.includes(name);
}

/** `a.b.c` → `a`, `a.b`, `a.b.c`. */
function prefixes(event: string): string[] {
  const parts = event.split(".");
  return parts.map((_, index) => parts.slice(0, index + 1).join("."));
}

/** Every subscription name that receives `event`: its dot prefixes and the aliases of any of them. */
export function subscriptionsMatching(event: string): string[] {
  const own = prefixes(event);
  const aliases = Object.entries(WEBHOOK_EVENT_ALIASES)
    .filter(([, canonical]) => own.includes(canonical))
    .map(([alias]) => alias);
  return [...new Set([...own, ...aliases])];
}
