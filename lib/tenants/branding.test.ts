import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { createTenant, getTenant, updateTenant } from ".";
import { DEFAULT_BRANDING } from "@/lib/settings/defaults";
import { mergeSettings } from "./merge-settings";
import { BrandingSettings, HexColor, LogoUrl } from "@/lib/settings/schemas";

describe("tenant branding", () => {
  it("defaults to Sesame's colours, no display name and no logo", async () => {
    const tenant = await createTenant({ name: "Plain" });
    expect(tenant.branding).toEqual({
      displayName: null,
      primaryColor: "#4f46e5",
      backgroundColor: "#ffffff",
      textColor: "#0f172a",
      logoUrl: null,
    });
    expect((await getTenant(tenant.id)).branding).toEqual(DEFAULT_BRANDING);
  });

  it("takes branding at creation, completed with the defaults", async () => {
    const tenant = await createTenant({
      name: "Acme",
      branding: {
        displayName: "  Acme Login ",
        primaryColor: "#FF6600",
        logoUrl: "https://cdn.acme.test/logo.svg",
      },
    });
    expect(tenant.branding).toEqual({
      displayName: "Acme Login",
      primaryColor: "#ff6600",
      backgroundColor: "#ffffff",
      textColor: "#0f172a",
      logoUrl: "https://cdn.acme.test/logo.svg",
    });
  });

  it("merges an update field by field and clears with null", async () => {
    const tenant = await createTenant({
      name: "Merge",
      branding: { displayName: "Merge Co", logoUrl: "https://merge.test/logo.png" },
    });
    const recoloured = await updateTenant(tenant.id, {
      branding: { backgroundColor: "#101010", textColor: "#FAFAFA" },
    });
    expect(recoloured.branding).toEqual({
      displayName: "Merge Co",
      primaryColor: "#4f46e5",
      backgroundColor: "#101010",
      textColor: "#fafafa",
      logoUrl: "https://merge.test/logo.png",
    });
    const cleared = await updateTenant(tenant.id, { branding: { displayName: null, logoUrl: null } });
    expect(cleared.branding).toEqual({ ...recoloured.branding, displayName: null, logoUrl: null });
    // Other settings are untouched by a branding change.
    expect(cleared.platform).toEqual(tenant.platform);
    expect(await getTenant(tenant.id)).toEqual(cleared);
  });

  it.each([
    [{ primaryColor: "red" }, "tenant.branding.primaryColor: must be a colour in hex notation"],
    [{ primaryColor: "#fff" }, "tenant.branding.primaryColor"],
    [{ backgroundColor: "#12345g" }, "tenant.branding.backgroundColor"],
    [{ textColor: "rgb(0,0,0)" }, "tenant.branding.textColor"],
    [{ textColor: "#0000000" }, "tenant.branding.textColor"],
    [{ logoUrl: "http://cdn.example.com/logo.png" }, "tenant.branding.logoUrl: must be an https URL"],
    [{ logoUrl: "javascript:alert(1)" }, "tenant.branding.logoUrl"],
    [{ logoUrl: "data:image/png;base64,AAAA" }, "tenant.branding.logoUrl"],
    [{ logoUrl: "//cdn.example.com/logo.png" }, "tenant.branding.logoUrl"],
    [{ logoUrl: "https://user:pw@cdn.example.com/logo.png" }, "tenant.branding.logoUrl"],
    [{ logoUrl: `https://cdn.example.com/${"a".repeat(2048)}` }, "tenant.branding.logoUrl"],
    [{ displayName: "" }, "tenant.branding.displayName"],
    [{ displayName: "x".repeat(101) }, "tenant.branding.displayName"],
  ])("refuses %j and changes nothing", async (branding, detail) => {
    const tenant = await createTenant({ name: "Strict", branding: { displayName: "Strict Co" } });
    const error = await updateTenant(tenant.id, { name: "Renamed", branding } as never).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("VALIDATION_FAILED");
    expect((error as AppError).details.join("\n")).toContain(detail);
    expect(await getTenant(tenant.id)).toEqual(tenant);
  });

  it("refuses a bad colour at creation", async () => {
    await expect(
      createTenant({ name: `bad-colour-${Date.now()}`, branding: { primaryColor: "blue" } }),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
  });
});

describe("branding schemas", () => {
  it.each(["#000000", "#ABCDEF", " #4f46e5 "])("accepts the colour %j", (value) => {
    expect(HexColor.parse(value)).toBe(value.trim().toLowerCase());
  });

  it.each(["000000", "#00000", "#0000000", "#gggggg", "blue", "", "#4f46e5;color:red"])(
    "refuses the colour %j",
    (value) => {
      expect(HexColor.safeParse(value).success).toBe(false);
    },
  );

  it.each([
    "https://cdn.example.com/logo.svg",
    "https://cdn.example.com:8443/a/b.png?v=2",
    "http://localhost:3000/logo.png",
    "http://127.0.0.1/logo.png",
  ])("accepts the logo URL %j", (value) => {
    expect(LogoUrl.parse(value)).toBe(new URL(value).href);
  });

  it.each([
    "http://example.com/logo.png",
    "http://localhost.evil.test/logo.png",
    "ftp://example.com/logo.png",
    "file:///etc/passwd",
    "javascript:alert(1)",
    "logo.png",
    "/logo.png",
    "https://a:b@example.com/logo.png",
  ])("refuses the logo URL %j", (value) => {
    expect(LogoUrl.safeParse(value).success).toBe(false);
  });

  it("validates a whole branding object", () => {
    expect(BrandingSettings.safeParse(DEFAULT_BRANDING).success).toBe(true);
    expect(BrandingSettings.safeParse({ ...DEFAULT_BRANDING, primaryColor: undefined }).success).toBe(false);
  });

  it("merges patches without letting undefined erase a value", () => {
    const current = { ...DEFAULT_BRANDING, displayName: "Kept" };
    expect(mergeSettings(current, undefined)).toBe(current);
    expect(mergeSettings(current, { displayName: undefined, textColor: "#111111" })).toEqual({
      ...current,
      textColor: "#111111",
    });
    // Rows written before the column existed (or with fewer fields) are completed with the defaults.
    expect(mergeSettings(DEFAULT_BRANDING, { primaryColor: "#000000" })).toEqual({
      ...DEFAULT_BRANDING,
      primaryColor: "#000000",
    });
  });
});
