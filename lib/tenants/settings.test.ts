import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { createTenant, updateTenant } from ".";
import { DEFAULT_PLATFORM_SETTINGS, DEFAULT_SETTINGS } from "@/lib/settings/defaults";
import { mergeSettings } from "./merge-settings";
import { SettingsPatch, SettingsSections, UpdateTenantInput } from "@/lib/settings/schemas";
import { applySettingsPatch } from "./settings";

describe("tenant settings defaults", () => {
  it.each(Object.keys(SettingsSections.shape) as (keyof typeof DEFAULT_SETTINGS)[])(
    "the default %s parses under its schema unchanged",
    (section) => {
      const schema = SettingsSections.shape[section];
      expect(schema.parse(DEFAULT_SETTINGS[section])).toEqual(DEFAULT_SETTINGS[section]);
    },
  );

  it("imports nothing but types, so client components can read the defaults", () => {
    const source = fs.readFileSync(path.join(import.meta.dirname, "../settings/defaults.ts"), "utf8");
    const imports = source.match(/^import .*$/gm) ?? [];
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.every((line) => line.startsWith("import type "))).toBe(true);
  });
});

describe("tenant settings patches", () => {
  it("merge a partial patch into the defaults, field by field at every depth", () => {
    const patch = SettingsPatch.parse({
      mfaPolicy: { attachment: null },
      uaf: { acceptedAaids: ["ffff#5e5a"] },
      platform: {
        session: { cookie: { sameSite: "lax" } },
        username: { enabled: true },
        rateLimits: { passcode: { points: 3, durationSeconds: 30 } },
      },
      branding: { primaryColor: "#FF6600" },
    });
    const merged = applySettingsPatch(DEFAULT_SETTINGS, patch);
    expect(merged).toEqual({
      passkeyPolicy: DEFAULT_SETTINGS.passkeyPolicy,
      mfaPolicy: { ...DEFAULT_SETTINGS.mfaPolicy, attachment: null },
      uaf: { ...DEFAULT_SETTINGS.uaf, acceptedAaids: ["FFFF#5E5A"] },
      platform: {
        ...DEFAULT_PLATFORM_SETTINGS,
        session: {
          ...DEFAULT_PLATFORM_SETTINGS.session,
          cookie: { ...DEFAULT_PLATFORM_SETTINGS.session.cookie, sameSite: "lax" },
        },
        username: { ...DEFAULT_PLATFORM_SETTINGS.username, enabled: true },
        // A rate-limit patch sets whole groups and keeps the others.
        rateLimits: { ...DEFAULT_PLATFORM_SETTINGS.rateLimits, passcode: { points: 3, durationSeconds: 30 } },
      },
      branding: { ...DEFAULT_SETTINGS.branding, primaryColor: "#ff6600" },
      auditLog: DEFAULT_SETTINGS.auditLog,
    });
    // The defaults themselves are left as they were.
    expect(DEFAULT_PLATFORM_SETTINGS.session.cookie.sameSite).toBe("strict");
  });

  it("replace lists whole and complete stored sections that lack later fields", () => {
    const current = { ...DEFAULT_SETTINGS.uaf, facetIds: ["https://a.example", "https://b.example"] };
    expect(mergeSettings(current, { facetIds: ["https://c.example"] }).facetIds).toEqual([
      "https://c.example",
    ]);
    const { mfa: _mfa, ...stored } = DEFAULT_PLATFORM_SETTINGS;
    expect(mergeSettings(DEFAULT_PLATFORM_SETTINGS, { ...stored, password: { enabled: true } })).toEqual({
      ...DEFAULT_PLATFORM_SETTINGS,
      password: { enabled: true, minLength: 8 },
    });
  });

  it.each([
    [{ platform: { apiVersion: 4 } }, "platform.apiVersion"],
    [{ platform: { session: { limit: "5" } } }, "platform.session.limit"],
    [{ platform: { session: { cookie: { sameSite: "always" } } } }, "platform.session.cookie.sameSite"],
    [{ platform: { username: { minLength: 0 } } }, "platform.username.minLength"],
    [
      { platform: { rateLimits: { passcode: { points: 3 } } } },
      "platform.rateLimits.passcode.durationSeconds",
    ],
    [{ passkeyPolicy: { attachment: "usb" } }, "passkeyPolicy.attachment"],
    [{ uaf: { acceptedAaids: ["FFFF-5E5A"] } }, "uaf.acceptedAaids.0"],
    [{ uaf: { allowSurrogate: "yes" } }, "uaf.allowSurrogate"],
    [{ branding: { logoUrl: 1 } }, "branding.logoUrl"],
    [{ platform: "all" }, "platform"],
  ])("refuse the wrong type in %j", (input, at) => {
    const result = UpdateTenantInput.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toContain(at);
  });

  it("drop unknown keys at every depth, as every settings schema does", () => {
    expect(
      UpdateTenantInput.parse({ color: "red", platform: { theme: 1, session: { limit: 2, ttl: 1 } } }),
    ).toEqual({ platform: { session: { limit: 2 } } });
  });

  it("check rules across fields on the merged section, at creation and update", async () => {
    const error = await createTenant({
      name: `username-rule-${Date.now()}`,
      platform: { username: { minLength: 40 } },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).details).toEqual([
      "tenant.platform.username: minLength must not exceed maxLength",
    ]);
    const tenant = await createTenant({ name: "Usernames", platform: { username: { maxLength: 64 } } });
    const updated = await updateTenant(tenant.id, { platform: { username: { minLength: 40 } } });
    expect(updated.platform.username).toEqual({
      enabled: false,
      required: false,
      minLength: 40,
      maxLength: 64,
    });
  });
});
