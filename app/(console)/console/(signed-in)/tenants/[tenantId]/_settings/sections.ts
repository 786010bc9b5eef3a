/**
 * The tenant settings page's sections, as data: which settings each form shows (by their path in the
 * schema of `tenant update`, lib/tenants/schemas.ts UpdateTenantInput) and how. The page renders them;
 * the section's server action accepts exactly these paths and nothing else.
 */

export type FieldKind = "text" | "number" | "duration" | "select" | "toggle" | "lines" | "color" | "pems";

export interface FieldDef {
  /** Dot-separated path in UpdateTenantInput; also the key of its error (`fieldErrors[path]`). */
  path: string;
  label: string;
  hint?: string;
  kind: FieldKind;
  options?: { value: string; label: string }[];
  /** An empty text (or the "" option) means null: unset. */
  nullable?: boolean;
  /** Consecutive fields of one group share a fieldset with this legend. */
  group?: string;
}

export type SectionId =
  "general" | "webauthn" | "methods" | "sessions" | "passcodes" | "email" | "branding" | "uaf" | "audit";

export interface SectionDef {
  id: SectionId;
  title: string;
  description: string;
  fields: FieldDef[];
}

const PREFERENCE = ["required", "preferred", "discouraged"].map((value) => ({ value, label: value }));
const ATTESTATION = ["none", "indirect", "direct", "enterprise"].map((value) => ({ value, label: value }));
const ATTACHMENT = [
  { value: "", label: "any authenticator" },
  { value: "platform", label: "platform (built in)" },
  { value: "cross-platform", label: "cross-platform (security key, phone)" },
];

function policy(section: "passkeyPolicy" | "mfaPolicy", who: string): FieldDef[] {
  const fields: FieldDef[] = [
    {
      path: `${section}.userVerification`,
      label: `${who}: user verification`,
      kind: "select",
      options: PREFERENCE,
    },
    { path: `${section}.attestation`, label: `${who}: attestation`, kind: "select", options: ATTESTATION },
    { path: `${section}.residentKey`, label: `${who}: resident key`, kind: "select", options: PREFERENCE },
    {
      path: `${section}.attachment`,
      label: `${who}: authenticator attachment`,
      kind: "select",
      options: ATTACHMENT,
      nullable: true,
    },
  ];
  return fields.map((field) => ({
    ...field,
    group: section === "passkeyPolicy" ? "Passkeys" : "MFA security keys",
  }));
}

export const SECTIONS: SectionDef[] = [
  {
    id: "general",
    title: "General",
    description: "The tenant's name and its WebAuthn relying party: every origin must lie on the RP ID.",
    fields: [
      { path: "name", label: "Name", kind: "text" },
      { path: "rpName", label: "RP name", hint: "What passkey prompts show.", kind: "text" },
      {
        path: "rpId",
        label: "RP ID",
        hint: "A host name such as example.com. Changing it makes existing passkeys unusable.",
        kind: "text",
      },
      {
        path: "origins",
        label: "Origins",
        hint: "One per line, such as https://app.example.com.",
        kind: "lines",
      },
    ],
  },
  {
    id: "webauthn",
    title: "WebAuthn policy",
    description:
      "How passkey (first factor) and MFA security key (second factor) ceremonies ask for credentials.",
    fields: [
      ...policy("passkeyPolicy", "Passkeys"),
      ...policy("mfaPolicy", "MFA keys"),
      {
        path: "challengeTtlSeconds",
        label: "Challenge lifetime",
        hint: "10 seconds to 1 hour.",
        kind: "duration",
      },
    ],
  },
  {
    id: "methods",
    title: "Sign-in methods",
    description: "What the flow API and the hosted pages offer for sign-up and login.",
    fields: [
      { path: "platform.passkeys.enabled", group: "Passkeys", label: "Passkeys", kind: "toggle" },
      {
        path: "platform.passkeys.optional",
        group: "Passkeys",
        label: "Passkey optional at registration",
        hint: "The user may skip creating one.",
        kind: "toggle",
      },
      {
        path: "platform.passcodes.enabled",
        group: "Passcodes",
        label: "Passcodes (one-time codes by email)",
        kind: "toggle",
      },
      { path: "platform.password.enabled", group: "Passwords", label: "Passwords", kind: "toggle" },
      {
        path: "platform.password.minLength",
        group: "Passwords",
        label: "Password minimum length",
        hint: "8 to 128.",
        kind: "number",
      },
      { path: "platform.username.enabled", group: "Usernames", label: "Usernames", kind: "toggle" },
      {
        path: "platform.username.required",
        group: "Usernames",
        label: "Username required at registration",
        kind: "toggle",
      },
      {
        path: "platform.username.minLength",
        group: "Usernames",
        label: "Username minimum length",
        hint: "1 to 64.",
        kind: "number",
      },
      {
        path: "platform.username.maxLength",
        group: "Usernames",
        label: "Username maximum length",
        hint: "1 to 64.",
        kind: "number",
      },
      {
        path: "platform.mfa.enabled",
        group: "Multi-factor authentication",
        label: "Multi-factor authentication",
        kind: "toggle",
      },
      {
        path: "platform.mfa.totp",
        group: "Multi-factor authentication",
        label: "MFA: authenticator apps (TOTP)",
        kind: "toggle",
      },
      {
        path: "platform.mfa.securityKeys",
        group: "Multi-factor authentication",
        label: "MFA: security keys",
        kind: "toggle",
      },
      { path: "platform.account.allowSignup", group: "Accounts", label: "Allow sign-up", kind: "toggle" },
      {
        path: "platform.account.allowDeletion",
        group: "Accounts",
        label: "Users may delete their account",
        kind: "toggle",
      },
    ],
  },
  {
    id: "sessions",
    title: "Sessions",
    description: "How long sessions last, how many a user may hold, and the session cookie.",
    fields: [
      {
        path: "sessionLifetimeSeconds",
        label: "Session lifetime",
        hint: "1 minute to 365 days.",
        kind: "duration",
      },
      {
        path: "platform.session.idleTimeoutSeconds",
        label: "Idle timeout",
        hint: "Unused sessions end after it; 0 = never.",
        kind: "duration",
      },
      {
        path: "platform.session.limit",
        label: "Sessions per user",
        hint: "1 to 100; the oldest go first.",
        kind: "number",
      },
      {
        path: "tokenLifetimeSeconds",
        label: "Token lifetime",
        hint: "Signed tokens; 10 seconds to 1 day.",
        kind: "duration",
      },
      {
        path: "platform.session.crossDomain",
        label: "X-Auth-Token header instead of a cookie",
        kind: "toggle",
      },
      { path: "platform.session.cookie.name", label: "Cookie name", kind: "text" },
      { path: "platform.session.cookie.secure", label: "Secure cookie", kind: "toggle" },
      {
        path: "platform.session.cookie.sameSite",
        label: "Cookie SameSite",
        kind: "select",
        options: ["strict", "lax", "none"].map((value) => ({ value, label: value })),
      },
      {
        path: "platform.session.cookie.domain",
        label: "Cookie domain",
        hint: "Such as .example.com; empty: host-only.",
        kind: "text",
        nullable: true,
      },
      {
        path: "platform.session.cookie.retention",
        label: "Cookie retention",
        kind: "select",
        options: [
          { value: "persistent", label: "persistent (Max-Age)" },
          { value: "session", label: "session (ends with the browser)" },
        ],
      },
    ],
  },
  {
    id: "passcodes",
    title: "Passcodes",
    description: "One-time codes sent by email.",
    fields: [
      {
        path: "passcodeTtlSeconds",
        label: "Passcode lifetime",
        hint: "1 to 10 minutes.",
        kind: "duration",
      },
    ],
  },
  {
    id: "email",
    title: "Email",
    description: "The users' email addresses.",
    fields: [
      {
        path: "platform.emails.requireVerification",
        label: "Require verified email addresses",
        kind: "toggle",
      },
      { path: "platform.emails.maxPerUser", label: "Addresses per user", hint: "1 to 100.", kind: "number" },
    ],
  },
  {
    id: "branding",
    title: "Branding",
    description: "How the hosted login, profile and logout pages look.",
    fields: [
      {
        path: "branding.displayName",
        label: "Display name",
        hint: "The hosted pages' heading; empty: the tenant's name.",
        kind: "text",
        nullable: true,
      },
      { path: "branding.primaryColor", label: "Primary colour", hint: "Buttons and accents.", kind: "color" },
      { path: "branding.backgroundColor", label: "Background colour", hint: "The card.", kind: "color" },
      { path: "branding.textColor", label: "Text colour", kind: "color" },
      {
        path: "branding.logoUrl",
        label: "Logo URL",
        hint: "https (http only on localhost); empty: no logo.",
        kind: "text",
        nullable: true,
      },
    ],
  },
  {
    id: "uaf",
    title: "UAF",
    description: "The Authenticator API (FIDO UAF): facets, trusted authenticators and request lifetime.",
    fields: [
      {
        path: "uaf.appId",
        label: "AppID",
        hint: "The https URL of a Trusted Facets list, or empty (the app's own FacetID).",
        kind: "text",
      },
      {
        path: "uaf.facetIds",
        label: "Trusted facet IDs",
        hint: "One per line: origins, android:apk-key-hash:… or ios:bundle-id:…; empty: the tenant's origins.",
        kind: "lines",
      },
      {
        path: "uaf.acceptedAaids",
        label: "Accepted AAIDs",
        hint: "One per line (VVVV#MMMM); empty: any.",
        kind: "lines",
      },
      {
        path: "uaf.trustedRoots",
        label: "Trusted attestation roots (PEM)",
        hint: "Paste the certificates; empty: none.",
        kind: "pems",
      },
      { path: "uaf.allowSurrogate", label: "Accept surrogate (self) attestation", kind: "toggle" },
      {
        path: "uaf.allowTestAuthenticators",
        label: "Accept test authenticators (vendor FFFF)",
        kind: "toggle",
      },
      {
        path: "requestTtlSeconds",
        label: "Request lifetime",
        hint: "10 seconds to 10 minutes.",
        kind: "duration",
      },
    ],
  },
  {
    id: "audit",
    title: "Audit log",
    description: "Older events are deleted in the background.",
    fields: [
      { path: "auditLog.retentionDays", label: "Retention (days)", hint: "1 to 3650.", kind: "number" },
    ],
  },
];

export const sectionById = (id: SectionId) => SECTIONS.find((section) => section.id === id)!;

/** The value at a dot-separated path. */
export function valueAt(source: unknown, path: string): unknown {
  let value = source;
  for (const key of path.split(".")) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Sets the value at a dot-separated path, creating objects on the way. */
export function setAt(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  const last = keys.pop()!;
  let node = target;
  for (const key of keys) {
    const next = node[key];
    node = (typeof next === "object" && next !== null ? next : (node[key] = {})) as Record<string, unknown>;
  }
  node[last] = value;
}

/** The units a duration is entered in, largest first, with their seconds. */
export const DURATION_UNITS = [
  { unit: "days", seconds: 86_400 },
  { unit: "hours", seconds: 3_600 },
  { unit: "minutes", seconds: 60 },
  { unit: "seconds", seconds: 1 },
] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number]["unit"];

/** Seconds as the form shows them: the largest unit that divides them ("43200" → "12 hours"). */
export function toDuration(seconds: unknown): { amount: string; unit: DurationUnit } {
  if (typeof seconds !== "number" || !Number.isFinite(seconds)) return { amount: "", unit: "seconds" };
  if (seconds === 0) return { amount: "0", unit: "minutes" };
  const unit = DURATION_UNITS.find((candidate) => seconds % candidate.seconds === 0) ?? DURATION_UNITS[3];
  return { amount: String(seconds / unit.seconds), unit: unit.unit };
}

/** What a duration field holds ("12 hours"), in seconds; NaN when the amount is not a number. */
export function fromDuration(text: string): number {
  const [amount = "", unit = "seconds"] = text.trim().split(/\s+/);
  const per = DURATION_UNITS.find((candidate) => candidate.unit === unit)?.seconds ?? 1;
  if (amount === "" || !/^-?\d+(\.\d+)?$/.test(amount)) return Number.NaN;
  // Thousandths at most: 0.1 minutes is 6 seconds, not 6.000000000000001; a fraction left is refused.
  return Math.round(Number(amount) * per * 1000) / 1000;
}

/** What a form field holds: text for inputs ("12 hours" for a duration), a boolean for toggles. */
export type FieldValue = string | boolean;

/** A setting's value as the form shows it. */
export function toFieldValue(field: FieldDef, value: unknown): FieldValue {
  switch (field.kind) {
    case "toggle":
      return value === true;
    case "lines":
    case "pems":
      return Array.isArray(value) ? value.map(String).join("\n") : "";
    case "duration": {
      const { amount, unit } = toDuration(value);
      return `${amount} ${unit}`;
    }
    default:
      return value === null || value === undefined ? "" : String(value);
  }
}

/** What the form sends for a field: the schema validates it on the server. */
export function fromFieldValue(field: FieldDef, value: FieldValue): unknown {
  if (field.kind === "toggle") return value === true;
  const text = String(value);
  switch (field.kind) {
    case "number":
      return text.trim() === "" ? Number.NaN : Number(text);
    case "duration":
      return fromDuration(text);
    case "lines":
      return text
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean);
    case "pems":
      return (
        text
          .match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)
          ?.map((pem) => `${pem}\n`) ?? (text.trim() ? [text.trim()] : [])
      );
    default:
      return field.nullable && text.trim() === "" ? null : text;
  }
}

/** Seconds in words with the largest unit that divides them: 43200 → "12 hours", 60 → "1 minute". */
export function durationWords(seconds: number): string {
  const { amount, unit } = toDuration(seconds);
  return `${amount} ${amount === "1" ? unit.slice(0, -1) : unit}`;
}

/**
 * A duration field's error with its bounds in words: "Must be at least 60 seconds" → "Must be at least 1
 * minute", "Enter 31536000 or less." → "Enter 365 days or less.".
 */
export function durationError(message: string): string {
  return message.replace(/\b(\d+)(?: seconds?\b)?/g, (_match, number: string) =>
    durationWords(Number(number)),
  );
}
