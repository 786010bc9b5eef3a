import { recordAuditEvent } from "@/lib/audit";
import { finalizePublicRegistration, initializePublicRegistration } from "@/lib/ceremonies/webauthn";
import {
  finalizeSecurityKeyRegistration,
  initializeSecurityKeyRegistration,
} from "@/lib/ceremonies/webauthn/security-keys";
import { RegistrationResponse } from "@/lib/contracts/passkey/schemas";
import {
  deleteUserCredential,
  renameUserCredential,
  selectUserCredentials,
  type Credential,
} from "@/lib/credentials";
import { transaction } from "@/lib/db";
import type { EmailRow, SessionRow } from "@/lib/db/schema";
import {
  createEmail,
  deleteEmail,
  isClaimOnly,
  normalizeAddress,
  releaseClaim,
  setPrimaryEmail,
} from "@/lib/emails";
import {
  countUserEmails,
  findEmail,
  findEmailByAddress,
  insertEmail,
  lockUser,
  markEmailVerified,
  selectUserEmails,
  setPrimaryEmailRow,
} from "@/lib/emails/store";
import { AppError } from "@/lib/errors";
import type { CheckedPasscode } from "@/lib/passcodes";
import { MAX_PASSWORD_LENGTH, minPasswordLength, setPassword } from "@/lib/passwords";
import { deletePassword, hasPassword } from "@/lib/passwords/manage";
import { endSession, selectUserSessions } from "@/lib/sessions";
import type { Tenant } from "@/lib/tenants";
import { deleteAccount, findUser, type User } from "@/lib/users";
import { InvalidUsername, UsernameTaken, deleteUsername, setUsername } from "@/lib/users/username";
import { defineFlow, type ActionDefinition, type FlowContext, type InputSpec } from "../definition";
import { FlowError, flowErrors, type FlowErrorCode } from "../errors";
import { checkOtpCode, newOtpSecret, otpCodeMatches, removeOtpSecret, saveOtpSecret } from "../otp";
import { hasOtpSecret } from "../otp-store";
import { flowUser } from "../payloads";
import { passcodeConfirmation, setPasscodeTarget } from "./passcode";
import {
  back,
  passkeysUsable,
  preflightState,
  registerClientCapabilities,
  webauthnAvailable,
} from "./shared";

/** Stash keys of the profile flow. */
const STASH = {
  /** What `webauthn_credential_verification` registers: a passkey or a security key. */
  creating: "profile_creating",
  /** A TOTP secret shown for set-up, saved only once a code of it is verified. */
  otpSetup: "profile_otp_setup",
} as const;

/** The user's data a profile step decides on and shows. */
interface Profile {
  user: User;
  emails: EmailRow[];
  passkeys: Credential[];
  securityKeys: Credential[];
  password: boolean;
  otp: boolean;
  sessions: SessionRow[];
}

/**
 * Loaded once per step context, so the availability checks, the inputs (synchronous: their allowed
 * values come from here, after the engine ran `available`) and the action see the same data. The
 * engine gives the state a step enters a new context object, which loads afresh.
 */
const loaded = new WeakMap<FlowContext, Profile>();

function sessionOf(ctx: FlowContext) {
  if (!ctx.session) throw flowErrors.unauthorized();
  return ctx.session;
}

async function profileOf(ctx: FlowContext): Promise<Profile> {
  const cached = loaded.get(ctx);
  if (cached) return cached;
  const tenantId = ctx.tenant.id;
  const user = await findUser(tenantId, sessionOf(ctx).user.id);
  if (!user) throw flowErrors.unauthorized();
  const [emails, credentials, password, otp, sessions] = await Promise.all([
    selectUserEmails(tenantId, user.id),
    selectUserCredentials(tenantId, user.id),
    hasPassword(tenantId, user.id),
    hasOtpSecret(tenantId, user.id),
    selectUserSessions(tenantId, user.id),
  ]);
  const profile: Profile = {
    user,
    emails,
    passkeys: credentials.filter((credential) => !credential.isMfa),
    securityKeys: credentials.filter((credential) => credential.isMfa),
    password,
    otp,
    sessions,
  };
  loaded.set(ctx, profile);
  return profile;
}

/** A check on the profile, for `available`. */
const when = (test: (profile: Profile, tenant: Tenant) => boolean) => async (ctx: FlowContext) =>
  test(await profileOf(ctx), ctx.tenant);

/**
 * Whether the user can still log in without `method` (Hanko's rule for deleting the last one): a
 * passkey, a password with an identifier to type, or a code mailed to one of the addresses.
 */
function canLogInWithout(tenant: Tenant, profile: Profile, method: "passkey" | "password"): boolean {
  const { passkeys, password, passcodes, username } = tenant.platform;
  const identifier = profile.emails.length > 0 || (username.enabled && Boolean(profile.user.username));
  return (
    (method !== "passkey" && passkeys.enabled && profile.passkeys.length > 0) ||
    (method !== "password" && password.enabled && profile.password && identifier) ||
    (passcodes.enabled && profile.emails.length > 0)
  );
}

const notFound = (what: string) => new FlowError("not_found", `${what} not found`);

/** A domain refusal (409) answers as a refused operation; everything else as it is. */
async function domain<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof AppError && !(error instanceof FlowError) && error.status === 409) {
      const message = [error.message, ...error.details].join(": ");
      throw new FlowError("operation_not_permitted_error", message, { cause: error });
    }
    throw error;
  }
}

/** A domain validation failure (400) as an error on the input it concerns. */
async function onInput<T>(input: string, code: FlowErrorCode, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof AppError && !(error instanceof FlowError) && error.status === 400) {
      throw new FlowError(code, [error.message, ...error.details].join(": "), { input, cause: error });
    }
    throw error;
  }
}

/** Hanko's `Session` of the profile payload; `user_agent` is a short "Browser (OS)" of the raw one. */
function flowSession(row: SessionRow, currentId: string) {
  return {
    id: row.id,
    ...(row.userAgent ? { user_agent: userAgentName(row.userAgent), user_agent_raw: row.userAgent } : {}),
    ...(row.ip ? { ip_address: row.ip } : {}),
    created_at: row.createdAt.toISOString(),
    last_used: row.lastUsedAt.toISOString(),
    current: row.id === currentId,
    expires_at: row.expiresAt.toISOString(),
  };
}

const BROWSERS = [
  ["Edg/", "Edge"],
  ["OPR/", "Opera"],
  ["Firefox/", "Firefox"],
  ["Chrome/", "Chrome"],
  ["Safari/", "Safari"],
] as const;
const SYSTEMS = [
  ["Windows", "Windows"],
  ["iPhone", "iOS"],
  ["iPad", "iOS"],
  ["Android", "Android"],
  ["Mac OS X", "Mac OS X"],
  ["Linux", "Linux"],
] as const;

function userAgentName(raw: string): string {
  const browser = BROWSERS.find(([token]) => raw.includes(token))?.[1];
  const system = SYSTEMS.find(([token]) => raw.includes(token))?.[1];
  if (browser && system) return `${browser} (${system})`;
  return browser ?? system ?? raw.slice(0, 64);
}

/**
 * `profile_init`: the user and the sessions, recomputed on every entry. Whatever was being set up
 * (a TOTP secret not yet confirmed, a credential ceremony) is abandoned here.
 */
async function profilePayload(ctx: FlowContext) {
  delete ctx.stash[STASH.otpSetup];
  delete ctx.stash[STASH.creating];
  const profile = await profileOf(ctx);
  const current = sessionOf(ctx).session.id;
  return {
    user: await flowUser(ctx.tenant, profile.user),
    sessions: profile.sessions.map((row) => flowSession(row, current)),
  };
}

// ── Email addresses ──────────────────────────────────────────────────────────────────────────────

const emailTaken = (input?: string) =>
  new FlowError("email_already_exists", "The email address already exists", input ? { input } : {});

const emailIdInput: InputSpec = { name: "email_id", type: "string", required: true, hidden: true };

/**
 * A verified address proven by a code (`email_create` with verification): added verified, primary if
 * the user has none. Another user's mere claim on it is released (see `isClaimOnly`).
 */
async function addVerifiedEmail(ctx: FlowContext, user: User, address: string): Promise<void> {
  const { tenant } = ctx;
  await transaction(async () => {
    await lockUser(tenant.id, user.id);
    if ((await countUserEmails(tenant.id, user.id)) >= tenant.platform.emails.maxPerUser) {
      throw new FlowError("operation_not_permitted_error", "Maximum number of email addresses reached");
    }
    const existing = await findEmailByAddress(tenant.id, address);
    if (existing && (existing.userId === user.id || !isClaimOnly(tenant, existing))) throw emailTaken();
    if (existing) await releaseClaim(tenant, existing, ctx.audit);
    const hasPrimary = (await selectUserEmails(tenant.id, user.id)).some((email) => email.isPrimary);
    const row = await insertEmail({
      tenantId: tenant.id,
      userId: user.id,
      address,
      verified: true,
      isPrimary: !hasPrimary,
    });
    if (!row) throw emailTaken();
    await recordAuditEvent(tenant.id, {
      ...ctx.audit,
      type: "email.create.succeeded",
      details: { userId: user.id, emailId: row.id, verified: true },
    });
  });
}

/** One of the user's addresses proven by a code (`email_verify`): verified, primary if none is. */
async function markVerified(ctx: FlowContext, user: User, emailId: string): Promise<void> {
  const { tenant } = ctx;
  await transaction(async () => {
    await lockUser(tenant.id, user.id);
    const email = await findEmail(tenant.id, emailId);
    if (!email || email.userId !== user.id) throw notFound("Email");
    if (!email.verified) {
      await markEmailVerified(tenant.id, email.id);
      await recordAuditEvent(tenant.id, {
        ...ctx.audit,
        type: "email.verified",
        details: { userId: user.id, emailId: email.id },
      });
    }
    const emails = await selectUserEmails(tenant.id, user.id);
    if (!emails.some((row) => row.isPrimary)) await setPrimaryEmailRow(tenant.id, user.id, email.id);
  });
}

/** After `passcode_confirmation`: the new address is added, or the existing one verified. */
const passcode = passcodeConfirmation(async (ctx, checked: CheckedPasscode) => {
  const { user } = await profileOf(ctx);
  if (checked.userId !== user.id) throw flowErrors.unauthorized();
  if (checked.emailId) await markVerified(ctx, user, checked.emailId);
  else await addVerifiedEmail(ctx, user, checked.address);
  return { to: "profile_init" };
});

const emailActions = {
  email_create: {
    description: "Add an email address.",
    inputs: [{ name: "email", type: "email", required: true, maxLength: 254 }],
    available: when((profile, tenant) => profile.emails.length < tenant.platform.emails.maxPerUser),
    async run(ctx, input) {
      const { user } = await profileOf(ctx);
      const address = await onInput("email", "value_invalid_error", async () =>
        normalizeAddress(String(input.email)),
      );
      const existing = await findEmailByAddress(ctx.tenant.id, address);
      if (existing && (existing.userId === user.id || !isClaimOnly(ctx.tenant, existing))) {
        throw emailTaken("email");
      }
      if (ctx.tenant.platform.emails.requireVerification) {
        setPasscodeTarget(ctx, { address, userId: user.id, emailId: null, purpose: "email_verification" });
        return { to: "passcode_confirmation" };
      }
      await domain(() => createEmail(ctx.tenant, user, { address }, ctx.audit));
      return { stay: true };
    },
  },
  email_delete: {
    description: "Delete an email address (never the primary one).",
    // Offered even when no address may go (as Hanko does): the elements read `allowed_values` for every
    // address they list, and show a delete button only for the ids listed here.
    inputs: (ctx) => [
      {
        ...emailIdInput,
        allowedValues: (loaded.get(ctx)?.emails ?? [])
          .filter((email) => !email.isPrimary)
          .map((email) => ({ value: email.id, name: email.address })),
      },
    ],
    // Always offered; this loads the profile the inputs above list.
    available: when(() => true),
    async run(ctx, input) {
      const { user } = await profileOf(ctx);
      await domain(() => deleteEmail(ctx.tenant, user, String(input.email_id), ctx.audit));
      return { stay: true };
    },
  },
  email_set_primary: {
    description: "Make an email address the primary one.",
    inputs: [emailIdInput],
    available: when((profile) => profile.emails.length > 1),
    async run(ctx, input) {
      const { user } = await profileOf(ctx);
      await domain(() => setPrimaryEmail(ctx.tenant, user, String(input.email_id).toLowerCase(), ctx.audit));
      return { stay: true };
    },
  },
  email_verify: {
    description: "Verify an email address with a code sent to it.",
    inputs: [emailIdInput],
    available: when((profile) => profile.emails.some((email) => !email.verified)),
    async run(ctx, input) {
      const { user, emails } = await profileOf(ctx);
      const email = emails.find((row) => row.id === String(input.email_id).toLowerCase());
      if (!email) throw notFound("Email");
      if (email.verified) return { stay: true };
      setPasscodeTarget(ctx, {
        address: email.address,
        userId: user.id,
        emailId: email.id,
        purpose: "email_verification",
      });
      return { to: "passcode_confirmation" };
    },
  },
} satisfies Record<string, ActionDefinition>;

// ── Passkeys and security keys ───────────────────────────────────────────────────────────────────

/** Credential ids: base64url of at most 1023 bytes (WebAuthn §7.1 step 25). */
const credentialIdInput = (name: string): InputSpec => ({
  name,
  type: "string",
  required: true,
  hidden: true,
  maxLength: 1364,
});

/** `webauthn_credential_verification`: creation options for what is being registered. */
async function creationOptions(ctx: FlowContext) {
  const user = sessionOf(ctx).user;
  const options =
    ctx.stash[STASH.creating] === "security_key"
      ? await initializeSecurityKeyRegistration(ctx.tenant, user, ctx.audit)
      : await initializePublicRegistration(ctx.tenant, user, ctx.audit);
  return { creation_options: { publicKey: options } };
}

/** Removes one of the user's passkeys (`mfa` false) or security keys (`mfa` true); else `not_found`. */
async function deleteOwnCredential(ctx: FlowContext, id: string, mfa: boolean): Promise<void> {
  const profile = await profileOf(ctx);
  const credential = (mfa ? profile.securityKeys : profile.passkeys).find((row) => row.id === id);
  if (!credential) throw notFound(mfa ? "Security key" : "Passkey");
  await deleteUserCredential(ctx.tenant.id, profile.user.id, credential.id, ctx.audit);
}

const credentialActions = {
  webauthn_credential_create: {
    description: "Create a passkey.",
    available: passkeysUsable,
    async run(ctx) {
      ctx.stash[STASH.creating] = "passkey";
      return { to: "webauthn_credential_verification" };
    },
  },
  security_key_create: {
    description: "Create a security key (second factor).",
    available: (ctx) => {
      const { mfa } = ctx.tenant.platform;
      return mfa.enabled && mfa.securityKeys && webauthnAvailable(ctx);
    },
    async run(ctx) {
      ctx.stash[STASH.creating] = "security_key";
      return { to: "webauthn_credential_verification" };
    },
  },
  webauthn_verify_attestation_response: {
    description: "Send the new credential (the result of navigator.credentials.create).",
    inputs: [{ name: "public_key", type: "json", required: true }],
    async run(ctx, input) {
      const parsed = RegistrationResponse.safeParse(input.public_key);
      if (!parsed.success) {
        throw new FlowError("value_invalid_error", "Not a WebAuthn attestation response", {
          input: "public_key",
        });
      }
      const user = sessionOf(ctx).user;
      const finalize =
        ctx.stash[STASH.creating] === "security_key"
          ? finalizeSecurityKeyRegistration
          : finalizePublicRegistration;
      try {
        await finalize(ctx.tenant, user, parsed.data, ctx.audit);
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        const detail = [error.message, ...error.details].join(": ");
        throw new FlowError("passkey_invalid", `The credential was not accepted (${detail})`, {
          cause: error,
        });
      }
      return { to: "profile_init" };
    },
  },
  webauthn_credential_rename: {
    description: "Rename a passkey or security key.",
    inputs: [
      credentialIdInput("passkey_id"),
      { name: "passkey_name", type: "string", required: true, maxLength: 255 },
    ],
    available: when((profile) => profile.passkeys.length + profile.securityKeys.length > 0),
    async run(ctx, input) {
      const { user } = await profileOf(ctx);
      const [id, name] = [String(input.passkey_id), String(input.passkey_name)];
      await renameUserCredential(ctx.tenant.id, user.id, id, name, ctx.audit);
      return { stay: true };
    },
  },
  webauthn_credential_delete: {
    description: "Delete a passkey.",
    inputs: [credentialIdInput("passkey_id")],
    // Hanko's rule: the last passkey goes only when passkeys are optional and another way in remains.
    available: when(
      (profile, tenant) =>
        tenant.platform.passkeys.enabled &&
        (profile.passkeys.length > 1 ||
          (profile.passkeys.length === 1 &&
            tenant.platform.passkeys.optional &&
            canLogInWithout(tenant, profile, "passkey"))),
    ),
    async run(ctx, input) {
      await deleteOwnCredential(ctx, String(input.passkey_id), false);
      return { stay: true };
    },
  },
  security_key_delete: {
    description: "Delete a security key.",
    inputs: [credentialIdInput("security_key_id")],
    available: when((profile) => profile.securityKeys.length > 0),
    async run(ctx, input) {
      await deleteOwnCredential(ctx, String(input.security_key_id), true);
      return { stay: true };
    },
  },
} satisfies Record<string, ActionDefinition>;

// ── Password and username ────────────────────────────────────────────────────────────────────────

const passwordInputs = (ctx: FlowContext): InputSpec[] => [
  {
    name: "password",
    type: "password",
    required: true,
    minLength: minPasswordLength(ctx.tenant),
    maxLength: MAX_PASSWORD_LENGTH,
  },
];

/** `password_create` and `password_update`: the same step, offered when the user has none or one. */
const passwordSet = (description: string, existing: boolean): ActionDefinition => ({
  description,
  inputs: passwordInputs,
  available: when((profile, tenant) => tenant.platform.password.enabled && profile.password === existing),
  async run(ctx, input) {
    const { user } = await profileOf(ctx);
    await onInput("password", "value_invalid_error", () =>
      setPassword(ctx.tenant, user, { password: String(input.password) }, ctx.audit, {
        keepSessionId: sessionOf(ctx).session.id,
      }),
    );
    return { stay: true };
  },
});

const usernameInputs = (ctx: FlowContext): InputSpec[] => {
  const { minLength, maxLength } = ctx.tenant.platform.username;
  return [{ name: "username", type: "string", required: true, minLength, maxLength }];
};

/** `username_create` and `username_update`: taken and malformed names are errors on the input. */
const usernameSet = (description: string, existing: boolean): ActionDefinition => ({
  description,
  inputs: usernameInputs,
  available: when(
    ({ user }, tenant) =>
      tenant.platform.username.enabled && user.externalId === null && Boolean(user.username) === existing,
  ),
  async run(ctx, input) {
    const { user } = await profileOf(ctx);
    try {
      await setUsername(ctx.tenant, user, String(input.username), ctx.audit);
    } catch (error) {
      if (error instanceof UsernameTaken) {
        throw new FlowError("username_already_exists", "The username already exists", { input: "username" });
      }
      if (error instanceof InvalidUsername) {
        const detail = error.details.join("; ");
        throw new FlowError("invalid_username_error", `Invalid username: ${detail}`, { input: "username" });
      }
      throw error;
    }
    return { stay: true };
  },
});

const secretActions = {
  password_create: passwordSet("Set a password.", false),
  password_update: passwordSet("Change the password.", true),
  password_delete: {
    description: "Delete the password.",
    available: when(
      (profile, tenant) =>
        tenant.platform.password.enabled && profile.password && canLogInWithout(tenant, profile, "password"),
    ),
    async run(ctx) {
      const { user } = await profileOf(ctx);
      await deletePassword(ctx.tenant, user, ctx.audit);
      return { stay: true };
    },
  },
  username_create: usernameSet("Set a username.", false),
  username_update: usernameSet("Change the username.", true),
  username_delete: {
    description: "Delete the username.",
    // Hanko's rule: the user must keep an address or a passkey to log in with.
    available: when(
      (profile, tenant) =>
        tenant.platform.username.enabled &&
        !tenant.platform.username.required &&
        profile.user.externalId === null &&
        Boolean(profile.user.username) &&
        (profile.emails.length > 0 || (tenant.platform.passkeys.enabled && profile.passkeys.length > 0)),
    ),
    async run(ctx) {
      const { user } = await profileOf(ctx);
      await deleteUsername(ctx.tenant, user, ctx.audit);
      return { stay: true };
    },
  },
} satisfies Record<string, ActionDefinition>;

// ── Authenticator app (TOTP) ─────────────────────────────────────────────────────────────────────

interface OtpSetup {
  secret: string;
  image: string;
}

const otpSetupOf = (ctx: FlowContext) => ctx.stash[STASH.otpSetup] as OtpSetup | undefined;

const otpActions = {
  continue_to_otp_secret_creation: {
    description: "Set up an authenticator app.",
    available: when(
      (profile, tenant) => tenant.platform.mfa.enabled && tenant.platform.mfa.totp && !profile.otp,
    ),
    async run(ctx) {
      const { user, emails } = await profileOf(ctx);
      const label = user.username || emails.find((email) => email.isPrimary)?.address || user.id;
      const { secret, image } = await newOtpSecret(ctx.tenant, label);
      ctx.stash[STASH.otpSetup] = { secret, image } satisfies OtpSetup;
      return { to: "mfa_otp_secret_creation" };
    },
  },
  otp_code_verify: {
    description: "Confirm the authenticator app with a code it shows.",
    inputs: [{ name: "otp_code", type: "string", required: true, minLength: 6, maxLength: 6 }],
    async run(ctx, input) {
      const setup = otpSetupOf(ctx);
      if (!setup) throw flowErrors.notPermitted("no authenticator app is being set up");
      const code = String(input.otp_code);
      if (!otpCodeMatches(ctx.tenant, setup.secret, code)) {
        throw new FlowError("otp_code_invalid", "The code is invalid", { input: "otp_code" });
      }
      const { user } = await profileOf(ctx);
      await saveOtpSecret(ctx.tenant, user.id, setup.secret);
      // The set-up code counts as used: it cannot log in a second time.
      await checkOtpCode(ctx.tenant, user.id, code);
      await recordAuditEvent(ctx.tenant.id, {
        ...ctx.audit,
        type: "otp_secret.created",
        details: { userId: user.id },
      });
      return { to: "profile_init" };
    },
  },
  otp_secret_delete: {
    description: "Remove the authenticator app.",
    available: when((profile) => profile.otp),
    async run(ctx) {
      const { user } = await profileOf(ctx);
      if (await removeOtpSecret(ctx.tenant, user.id)) {
        await recordAuditEvent(ctx.tenant.id, {
          ...ctx.audit,
          type: "otp_secret.deleted",
          details: { userId: user.id },
        });
      }
      return { stay: true };
    },
  },
} satisfies Record<string, ActionDefinition>;

// ── Sessions and the account ─────────────────────────────────────────────────────────────────────

/** The user's sessions other than the one in use (which logout ends, not the profile). */
const otherSessions = (ctx: FlowContext, profile: Profile | undefined) =>
  (profile?.sessions ?? []).filter((row) => row.id !== ctx.session?.session.id);

const accountActions = {
  session_delete: {
    description: "End another session of the user.",
    // The elements show a revoke button only for the ids listed here.
    inputs: (ctx) => [
      {
        name: "session_id",
        type: "string",
        required: true,
        hidden: true,
        allowedValues: otherSessions(ctx, loaded.get(ctx)).map((row) => ({ value: row.id, name: row.id })),
      },
    ],
    available: async (ctx) => otherSessions(ctx, await profileOf(ctx)).length > 0,
    async run(ctx, input) {
      const session = otherSessions(ctx, await profileOf(ctx)).find((row) => row.id === input.session_id);
      if (!session) throw notFound("Session");
      await endSession(ctx.tenant, session, ctx.audit, "revoked");
      return { stay: true };
    },
  },
  account_delete: {
    description: "Delete the account.",
    available: (ctx) => ctx.tenant.platform.account.allowDeletion,
    async run(ctx) {
      const { user } = await profileOf(ctx);
      await deleteAccount(ctx.tenant, user, ctx.audit);
      ctx.endsSession = true;
      return { to: "account_deleted" };
    },
  },
} satisfies Record<string, ActionDefinition>;

/**
 * `profile`: the signed-in user's self-service (`<hanko-profile>`). The engine authenticates the
 * session before the start and every step; every action works on that session's user, and ids of
 * anything else (another user's address, credential or session) are not found. Actions are offered
 * only when they apply, which is what the elements read to show each section.
 */
export const profileFlow = defineFlow({
  name: "profile",
  ttlSeconds: 60 * 60,
  initialState: "preflight",
  requiresSession: true,
  states: {
    preflight: preflightState,
    profile_init: {
      actions: [
        "account_delete",
        "continue_to_otp_secret_creation",
        "email_create",
        "email_delete",
        "email_set_primary",
        "email_verify",
        "otp_secret_delete",
        "password_create",
        "password_delete",
        "password_update",
        "security_key_create",
        "security_key_delete",
        "session_delete",
        "username_create",
        "username_delete",
        "username_update",
        "webauthn_credential_create",
        "webauthn_credential_delete",
        "webauthn_credential_rename",
      ],
      enter: profilePayload,
    },
    passcode_confirmation: passcode.state,
    webauthn_credential_verification: {
      actions: ["webauthn_verify_attestation_response", "back"],
      enter: creationOptions,
    },
    mfa_otp_secret_creation: {
      actions: ["otp_code_verify", "back"],
      enter: async (ctx) => {
        const setup = otpSetupOf(ctx);
        return setup ? { otp_secret: setup.secret, otp_image_source: setup.image } : {};
      },
    },
    account_deleted: { actions: [] },
  },
  actions: {
    register_client_capabilities: registerClientCapabilities("profile_init"),
    ...emailActions,
    ...passcode.actions,
    ...credentialActions,
    ...secretActions,
    ...otpActions,
    ...accountActions,
    back,
  },
});
