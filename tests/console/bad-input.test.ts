import { beforeAll, describe, expect, it, vi } from "vitest";
import { signInOperator } from "@/tests/helpers/console";
import { createTestTenant } from "@/tests/helpers/tenants";
import {
  addUserEmail,
  createUser,
  makeEmailPrimary,
  removeUserCredential,
  removeUserEmail,
  saveMetadata,
  saveProfile,
  setUserLocked,
} from "@/app/(console)/console/(signed-in)/tenants/[tenantId]/users/actions";
import { createAdminUser } from "@/lib/accounts";
import {
  createWebhookAction,
  updateWebhookAction,
} from "@/app/(console)/console/(signed-in)/tenants/[tenantId]/webhooks/actions";
import { createKey } from "@/app/(console)/console/(signed-in)/tenants/[tenantId]/keys/actions";
import * as settingsActions from "@/app/(console)/console/(signed-in)/tenants/[tenantId]/actions";
import {
  checkTenantAction,
  createTenantAction,
} from "@/app/(console)/console/(signed-in)/tenants/new/actions";
import { changeOperator, inviteOperator } from "@/app/(console)/console/(signed-in)/operators/actions";
import {
  SECTIONS,
  type FieldDef,
  type SectionId,
} from "@/app/(console)/console/(signed-in)/tenants/[tenantId]/_settings/sections";
import type { ActionResult } from "@/lib/console/guard";
import { createWebhook } from "@/lib/webhooks";
import * as usersRoute from "@/app/(admin-api)/t/[tenantId]/admin/users/route";
import * as webhooksRoute from "@/app/(admin-api)/t/[tenantId]/admin/webhooks/route";
import {
  deleteUser,
  revokeAllSessions,
  revokeSession,
} from "@/app/(console)/console/(signed-in)/tenants/[tenantId]/users/actions";
import {
  deleteWebhookAction,
  replayDeliveryAction,
  rotateWebhookSecretAction,
  sendTestEventAction,
  setWebhookEnabledAction,
} from "@/app/(console)/console/(signed-in)/tenants/[tenantId]/webhooks/actions";
import { revokeKey } from "@/app/(console)/console/(signed-in)/tenants/[tenantId]/keys/actions";
import { deleteOperator, newEnrolmentLink } from "@/app/(console)/console/(signed-in)/operators/actions";
import {
  addPasskey,
  removePasskey,
  renamePasskey,
} from "@/app/(console)/console/(signed-in)/account/actions";
import { completeEnrolment, enrolmentInfo, enrolmentOptions } from "@/app/(console)/console/public-actions";
import { adminCall } from "@/tests/helpers/admin-api";
import { sesameInProcess } from "@/tests/helpers/cli";
import { getTenant } from "@/lib/tenants";

// Next's request plumbing only (see tests/helpers/console.ts); imported lazily, as vi.mock is hoisted.
vi.mock("next-auth", async (original) =>
  (await import("@/tests/helpers/console")).nextMocks.nextAuth(original as never),
);
vi.mock("next/headers", async () => (await import("@/tests/helpers/console")).nextMocks.headers());
vi.mock("next/cache", async () => (await import("@/tests/helpers/console")).nextMocks.cache());

/**
 * Issue 29, point 1: every field of every console form answers bad input (empty, too long, the wrong type,
 * malformed) with an error next to that field, never a thrown error (a 500 in the browser). One table:
 * each row names an action, a field and how to call the action with a value for that field; the settings
 * sections' rows come from the sections' own definitions, so a new field is covered without a new line.
 */

type Variant = "empty" | "too long" | "wrong type" | "malformed";
const LONG = "x".repeat(200_001);

interface FieldCase {
  /** Empty means "none" for this field (an optional one): accepted, or refused at the field. */
  optional?: true;
  action: string;
  /** The field's key in `fieldErrors` (a list's errors may be keyed `<field>.<index>`). */
  field: string;
  call: (value: unknown) => Promise<ActionResult<unknown>>;
  bad: Record<Variant, unknown>;
}

/** Malformed values of the settings' text fields, by path (what a person could type that is not allowed). */
const MALFORMED_TEXT: Record<string, unknown> = {
  name: "   ",
  rpName: "   ",
  rpId: "not a host name",
  "platform.session.cookie.name": "my cookie!",
  "platform.session.cookie.domain": "not a domain!",
  "branding.displayName": "   ",
  "branding.logoUrl": "javascript:alert(1)",
  "uaf.appId": "http://not-https.example",
};
/** Text fields whose empty value is a setting of its own ("" for the UAF AppID: the app's own FacetID). */
const EMPTY_MEANS_UNSET = new Set(["uaf.appId"]);
const MALFORMED_LINES: Record<string, unknown> = {
  origins: ["foo"],
  "uaf.facetIds": ["not a url"],
  "uaf.acceptedAaids": ["ZZZZ"],
};

/** Bad values by the kind of form control (lib of sections.ts). */
function badValues(field: FieldDef): Record<Variant, unknown> {
  switch (field.kind) {
    case "text":
      return {
        empty: "",
        "too long": LONG,
        "wrong type": 42,
        malformed: MALFORMED_TEXT[field.path] ?? "   ",
      };
    case "number":
    case "duration":
      return { empty: "", "too long": 1e15, "wrong type": "60", malformed: 1.5 };
    case "select":
      return { empty: "", "too long": LONG, "wrong type": 42, malformed: "bogus" };
    case "toggle":
      return { empty: "", "too long": LONG, "wrong type": "true", malformed: null };
    case "color":
      return { empty: "", "too long": `#${"a".repeat(5000)}`, "wrong type": 42, malformed: "red" };
    case "lines":
      return {
        empty: [""],
        "too long": Array.from({ length: 200 }, (_, i) => `https://h${i}.example`),
        "wrong type": "https://a.example",
        malformed: MALFORMED_LINES[field.path] ?? ["?"],
      };
    case "pems":
      return {
        empty: [""],
        "too long": ["x".repeat(20_000)],
        "wrong type": "-----BEGIN CERTIFICATE-----",
        malformed: ["-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----"],
      };
  }
}

const setAt = (path: string, value: unknown): Record<string, unknown> =>
  path
    .split(".")
    .reverse()
    .reduce<unknown>((inner, key) => ({ [key]: inner }), value) as Record<string, unknown>;

const SAVE: Record<SectionId, (tenantId: string, form: unknown) => Promise<ActionResult<unknown>>> = {
  general: settingsActions.saveGeneral,
  webauthn: settingsActions.saveWebauthnPolicy,
  methods: settingsActions.saveSignInMethods,
  sessions: settingsActions.saveSessions,
  passcodes: settingsActions.savePasscodes,
  email: settingsActions.saveEmail,
  branding: settingsActions.saveBranding,
  uaf: settingsActions.saveUaf,
  audit: settingsActions.saveAuditLog,
};

const text = (kind: "text") => ({ kind }) as FieldDef;
const EMAIL = {
  empty: "",
  "too long": `${"a".repeat(300)}@example.com`,
  "wrong type": 42,
  malformed: "not an email",
};

let tenantId = "";
let adminKey = "";
let webhookId = "";
/** A user of the tenant, for the user page's forms. */
let userId = "";
const newUser = () => ({
  email: `u-${crypto.randomUUID()}@example.com`,
  additionalEmails: "",
  verified: true,
  username: "",
});
const VALID_HOOK = { callback: "https://93.184.215.14/sesame", events: ["user.create"] };
const VALID_TENANT = { name: "Shop", rpId: "localhost", rpName: "Shop", origins: ["http://localhost:3000"] };

const cases = (): FieldCase[] => [
  ...SECTIONS.flatMap((section) =>
    section.fields.map((field) => ({
      action: `settings ${section.id}`,
      field: field.path,
      call: (value: unknown) => SAVE[section.id](tenantId, setAt(field.path, value)),
      bad: badValues(field),
      ...(EMPTY_MEANS_UNSET.has(field.path) ? { optional: true as const } : {}),
    })),
  ),
  ...(["name", "rpName", "rpId"] as const).flatMap((field) =>
    [checkTenantAction, createTenantAction].map((action) => ({
      action: `wizard ${action.name}`,
      field,
      call: (value: unknown) => action({ ...VALID_TENANT, [field]: value }),
      bad: { ...badValues(text("text")), malformed: MALFORMED_TEXT[field] },
    })),
  ),
  ...[checkTenantAction, createTenantAction].map((action) => ({
    action: `wizard ${action.name}`,
    field: "origins",
    call: (value: unknown) => action({ ...VALID_TENANT, origins: value }),
    bad: { ...badValues({ kind: "lines", path: "origins" } as FieldDef), malformed: ["not a url"] },
  })),
  ...(["email", "username"] as const).map((field) => ({
    action: "createUser",
    field,
    call: (value: unknown) => createUser(tenantId, { ...newUser(), [field]: value } as never),
    bad: field === "email" ? EMAIL : { ...EMAIL, malformed: "bad name!" },
    ...(field === "username" ? { optional: true as const } : {}),
  })),
  {
    action: "createUser",
    field: "additionalEmails",
    call: (value) => createUser(tenantId, { ...newUser(), additionalEmails: value } as never),
    optional: true,
    bad: { empty: ",", "too long": LONG, "wrong type": ["a@example.com"], malformed: "x@" },
  },
  {
    action: "createUser",
    field: "verified",
    call: (value) => createUser(tenantId, { ...newUser(), verified: value } as never),
    bad: { empty: "", "too long": LONG, "wrong type": "true", malformed: null },
  },
  ...(["username", "name"] as const).map((field) => ({
    action: "saveProfile",
    field,
    optional: true as const,
    call: (value: unknown) =>
      saveProfile(tenantId, userId, { username: "", name: "", [field]: value } as never),
    bad: {
      empty: "",
      "too long": LONG,
      "wrong type": 42,
      malformed: field === "username" ? "bad name!" : "x".repeat(300),
    },
  })),
  {
    action: "addUserEmail",
    field: "address",
    call: (value) =>
      addUserEmail(tenantId, userId, { address: value, verified: true, primary: false } as never),
    bad: EMAIL,
  },
  ...(["verified", "primary"] as const).map((field) => ({
    action: "addUserEmail",
    field,
    call: (value: unknown) =>
      addUserEmail(tenantId, userId, {
        address: `a-${crypto.randomUUID()}@example.com`,
        verified: true,
        primary: false,
        [field]: value,
      } as never),
    bad: { empty: "", "too long": LONG, "wrong type": "true", malformed: null },
  })),
  {
    action: "saveMetadata",
    field: "public_metadata",
    call: (value) =>
      saveMetadata(tenantId, crypto.randomUUID(), {
        kind: "public_metadata",
        original: "{}",
        value,
      } as never),
    bad: { empty: "", "too long": `{"a":"${LONG}"}`, "wrong type": 42, malformed: "{not json" },
  },
  ...[
    ["createWebhookAction", (input: unknown) => createWebhookAction(tenantId, input as never)],
    ["updateWebhookAction", (input: unknown) => updateWebhookAction(tenantId, webhookId, input as never)],
  ].flatMap(([action, run]) => [
    {
      action: action as string,
      field: "callback",
      call: (value: unknown) =>
        (run as (input: unknown) => Promise<ActionResult<unknown>>)({ ...VALID_HOOK, callback: value }),
      bad: { empty: "", "too long": `https://a.example/${LONG}`, "wrong type": 42, malformed: "not a url" },
    },
    {
      action: action as string,
      field: "events",
      call: (value: unknown) =>
        (run as (input: unknown) => Promise<ActionResult<unknown>>)({ ...VALID_HOOK, events: value }),
      bad: {
        empty: [],
        "too long": Array(500).fill("user.create"),
        "wrong type": "user.create",
        malformed: ["no.such.event"],
      },
    },
  ]),
  ...(["name", "scopes"] as const).map((field) => ({
    action: "createKey",
    field,
    call: (value: unknown) => createKey(tenantId, { name: "ci", scopes: ["admin"], [field]: value }),
    bad:
      field === "name"
        ? { ...badValues(text("text")), malformed: "   " }
        : { empty: [], "too long": Array(50).fill("admin"), "wrong type": "admin", malformed: ["root"] },
  })),
  ...(["email", "role", "tenantIds"] as const).map((field) => ({
    action: "inviteOperator",
    field,
    call: (value: unknown) =>
      inviteOperator({
        email: `op-${crypto.randomUUID()}@ops.test`,
        role: "admin",
        tenantIds: [],
        [field]: value,
      }),
    bad:
      field === "email"
        ? EMAIL
        : field === "role"
          ? { empty: "", "too long": LONG, "wrong type": 1, malformed: "root" }
          : {
              empty: [""],
              "too long": Array(1001).fill(tenantId),
              "wrong type": tenantId,
              malformed: ["abc"],
            },
  })),
  {
    action: "renamePasskey",
    field: "name",
    call: (value: unknown) => renamePasskey("some-passkey", { name: value }),
    bad: { empty: "", "too long": LONG, "wrong type": 42, malformed: "   " },
  },
  ...(["role", "tenantIds"] as const).map((field) => ({
    action: "changeOperator",
    field,
    call: (value: unknown) =>
      changeOperator(crypto.randomUUID(), { role: "admin", tenantIds: [], [field]: value }),
    bad:
      field === "role"
        ? { empty: "", "too long": LONG, "wrong type": 1, malformed: "root" }
        : { empty: [""], "too long": Array(1001).fill(tenantId), "wrong type": tenantId, malformed: ["abc"] },
  })),
];

/** One signed-in owner and one tenant with a webhook for every table below. */
beforeAll(async () => {
  await signInOperator(`owner-${crypto.randomUUID()}@bad-input.test`);
  const provisioned = await createTestTenant({ name: "bad input" });
  tenantId = provisioned.tenant.id;
  adminKey = provisioned.keys.admin;
  webhookId = (await createWebhook(tenantId, VALID_HOOK, { actor: "test" } as never)).webhook.id;
  userId = (
    await createAdminUser(
      provisioned.tenant,
      { emails: [{ address: `page-${crypto.randomUUID()}@example.com`, isPrimary: true, isVerified: true }] },
      { actor: "test" } as never,
    )
  ).user.id;
});

describe("console actions refuse bad input field by field, never with a 500", () => {
  const table = cases().flatMap((row) =>
    (Object.keys(row.bad) as Variant[]).map((variant) => ({ ...row, variant })),
  );

  it("covers every settings field and every form of the console", () => {
    expect(table.length).toBeGreaterThan(200);
    expect(new Set(table.map((row) => row.action))).toEqual(
      new Set([
        ...SECTIONS.map((section) => `settings ${section.id}`),
        "wizard checkTenantAction",
        "wizard createTenantAction",
        "createUser",
        "saveProfile",
        "addUserEmail",
        "saveMetadata",
        "createWebhookAction",
        "updateWebhookAction",
        "createKey",
        "inviteOperator",
        "changeOperator",
        "renamePasskey",
      ]),
    );
  });

  it.each(table.map((row) => [row.action, row.field, row.variant, row] as const))(
    "%s: %s %s",
    async (_action, field, variant, row) => {
      const before = JSON.stringify(await getTenant(tenantId));
      const result = await row.call(row.bad[variant]);
      if (row.optional && variant === "empty" && result.ok) return;
      expect(result.ok, `${variant} ${field} was accepted`).toBe(false);
      if (result.ok) return;
      const keys = Object.keys(result.fieldErrors ?? {});
      expect(
        keys.some((key) => key === field || key.startsWith(`${field}.`)),
        JSON.stringify(result),
      ).toBe(true);
      expect(JSON.stringify(await getTenant(tenantId))).toBe(before);
      // Words a person understands (point 5): no zod defaults, no HTTP status text.
      for (const message of [result.error, ...Object.values(result.fieldErrors ?? {})]) {
        expect(message).not.toMatch(
          /Too small|Too big|Invalid input|Invalid option|expected \w+, received|Bad Request/,
        );
        expect(message).toMatch(/^[A-Z]/);
      }
    },
  );
});

/** Actions whose arguments are ids or flags the pages pass (no form field): refused, never thrown. */
const ARGUMENT_ACTIONS: [string, (value: unknown) => Promise<ActionResult<unknown>>][] = [
  ["saveGeneral (tenant id)", (value) => settingsActions.saveGeneral(value as string, { name: "x" })],
  ["deleteUser", (value) => deleteUser(tenantId, value as string)],
  ["setUserLocked (user id)", (value) => setUserLocked(tenantId, value as string, true)],
  ["setUserLocked (flag)", (value) => setUserLocked(tenantId, userId, value as boolean)],
  ["makeEmailPrimary", (value) => makeEmailPrimary(tenantId, userId, value as string)],
  ["removeUserEmail", (value) => removeUserEmail(tenantId, userId, value as string)],
  ["removeUserCredential", (value) => removeUserCredential(tenantId, userId, value as string)],
  ["revokeSession", (value) => revokeSession(tenantId, crypto.randomUUID(), value as string)],
  ["revokeAllSessions", (value) => revokeAllSessions(tenantId, value as string)],
  ["setWebhookEnabledAction", (value) => setWebhookEnabledAction(tenantId, webhookId, value as boolean)],
  ["rotateWebhookSecretAction", (value) => rotateWebhookSecretAction(tenantId, value as string)],
  ["deleteWebhookAction", (value) => deleteWebhookAction(tenantId, value as string)],
  ["sendTestEventAction", (value) => sendTestEventAction(tenantId, value as string)],
  ["replayDeliveryAction", (value) => replayDeliveryAction(tenantId, webhookId, value as string)],
  ["revokeKey", (value) => revokeKey(tenantId, value as string)],
  ["deleteOperator", (value) => deleteOperator(value as string)],
  ["newEnrolmentLink", (value) => newEnrolmentLink(value as string)],
  ["removePasskey", (value) => removePasskey(value as string)],
  ["renamePasskey", (value) => renamePasskey(value as string, { name: "Work laptop" })],
  ["addPasskey", (value) => addPasskey(value)],
  ["enrolmentInfo", (value) => enrolmentInfo(value as string)],
  ["enrolmentOptions", (value) => enrolmentOptions(value as string, value as string)],
  ["completeEnrolment", (value) => completeEnrolment(value as string, value)],
];

describe("console actions refuse bad arguments without a 500", () => {
  it.each(
    ARGUMENT_ACTIONS.flatMap(([name, call]) =>
      (["", LONG, 42, "not-a-uuid", null] as const).map(
        (value) => [name, String(value).slice(0, 12), call, value] as const,
      ),
    ),
  )("%s(%s)", async (_name, _shown, call, value) => {
    const result = await call(value);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).not.toMatch(/Bad Request|Too small|Invalid input/);
  });
});

/** The same schemas serve the CLI and the admin API: their bad input is a clear refusal, never a crash. */
describe("the CLI and the admin API refuse the same bad input", () => {
  it.each([
    ["--origin", "foo", "origins"],
    ["--origin", "not a url", "origins"],
    ["--rp-id", "not a host", "rpId"],
    ["--challenge-ttl", "soon", "challengeTtlSeconds"],
    ["--cookie-same-site", "bogus", "platform.session.cookie.sameSite"],
    ["--session-limit", "0", "platform.session.limit"],
  ])("tenant update %s %s", async (flag, value, path) => {
    const run = await sesameInProcess("tenant", "update", tenantId, flag, value);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(path);
    expect(run.stderr).not.toMatch(/TypeError|at .*\.ts:\d+/);
  });

  it.each([
    ["users", { emails: [{ address: "not an email", is_primary: true }] }],
    ["users", { emails: "a@example.com" }],
    ["users", { username: 42 }],
    ["webhooks", { callback: "foo", events: ["user"] }],
    ["webhooks", { callback: "https://93.184.215.14/hooks", events: "user" }],
    ["webhooks", { callback: `https://93.184.215.14/${"x".repeat(5000)}`, events: [] }],
  ])("POST admin/%s (case %#) is a 400", async (resource, body) => {
    const handler = resource === "users" ? usersRoute.POST : webhooksRoute.POST;
    const res = await adminCall(handler, `/t/${tenantId}/admin/${resource}`, adminKey, {
      method: "POST",
      params: { tenantId },
      body,
    });
    expect(res.status).toBe(400);
  });
});

describe("users with usernames off", () => {
  it("refuses a username next to its field, and creates nobody (issue 29, point 11)", async () => {
    const off = (await createTestTenant({ platform: { username: { enabled: false } } })).tenant.id;
    const email = `nameless-${crypto.randomUUID()}@example.com`;
    const result = await createUser(off, { email, additionalEmails: "", verified: true, username: "ada" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors?.username).toMatch(/^Usernames are not enabled/);
    const again = await createUser(off, { email, additionalEmails: "", verified: true, username: "" });
    expect(again.ok).toBe(true);
  });
});
