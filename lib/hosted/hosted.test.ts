import { describe, expect, it } from "vitest";
import { DEFAULT_BRANDING } from "@/lib/settings/defaults";
import { contrastRatio, hostedBranding, readableOn } from "./branding";
import { pickLang, preferredLang } from "./lang";
import { firstValue, hostedPath, isHostedPage, isOpenIdInteraction } from "./paths";

const ID = "0b6a5f3e-5c1d-4b8e-9a4f-2f3c4d5e6f70";

describe("hosted page language", () => {
  it.each([
    [undefined, "en"],
    [null, "en"],
    ["", "en"],
    ["de", "de"],
    ["de-DE,de;q=0.9,en;q=0.8", "de"],
    ["en-US,en;q=0.9,de;q=0.8", "en"],
    ["fr-FR,fr;q=0.9,de;q=0.5", "de"],
    ["fr-FR,fr;q=0.9", "en"],
    ["de;q=0.5,en;q=0.6", "en"],
    ["en;q=0.5,de;q=0.6", "de"],
    ["de,en", "de"],
    ["en,de", "en"],
    ["DE-at", "de"],
    ["de;q=0", "en"],
    ["de;q=abc", "en"],
    ["*", "en"],
  ])("Accept-Language %j → %s", (header, lang) => {
    expect(preferredLang(header)).toBe(lang);
  });

  it("takes ?lang= first, when it is a supported language", () => {
    expect(pickLang("de", "en")).toBe("de");
    expect(pickLang("en", "de")).toBe("en");
    expect(pickLang("fr", "de")).toBe("de");
    expect(pickLang("DE", "en")).toBe("en");
    expect(pickLang(undefined, undefined)).toBe("en");
  });
});

describe("hosted page paths", () => {
  it("builds the three pages under the tenant URL", () => {
    expect(hostedPath(ID, "login")).toBe(`/t/${ID}/hosted/login`);
    expect(hostedPath(ID, "profile", { lang: undefined })).toBe(`/t/${ID}/hosted/profile`);
    expect(hostedPath(ID, "login", { redirect_to: `/t/${ID}/hosted/profile?lang=de`, lang: "de" })).toBe(
      `/t/${ID}/hosted/login?redirect_to=%2Ft%2F${ID}%2Fhosted%2Fprofile%3Flang%3Dde&lang=de`,
    );
  });

  it("recognises a page whatever its query, slash or origin", () => {
    expect(isHostedPage(`/t/${ID}/hosted/logout?redirect_to=x`, ID, "logout")).toBe(true);
    expect(isHostedPage(`/t/${ID}/hosted/logout/`, ID, "logout")).toBe(true);
    expect(isHostedPage(`http://localhost:3000/t/${ID}/hosted/logout`, ID, "logout")).toBe(true);
    expect(isHostedPage(`/t/${ID}/hosted/login`, ID, "logout")).toBe(false);
    expect(isHostedPage("https://app.test/", ID, "login")).toBe(false);
  });

  it("recognises this tenant's OpenID Provider interactions, on this origin only", () => {
    expect(isOpenIdInteraction(`/t/${ID}/oauth/interaction/AbC-123`, ID)).toBe(true);
    expect(isOpenIdInteraction(`/t/${ID}/oauth/interaction/`, ID)).toBe(true);
    expect(isOpenIdInteraction(`/t/${ID}/oauth/authorize`, ID)).toBe(false);
    expect(isOpenIdInteraction(`/t/00000000-0000-4000-8000-000000000000/oauth/interaction/x`, ID)).toBe(
      false,
    );
    expect(isOpenIdInteraction(`https://app.test/t/${ID}/oauth/interaction/x`, ID)).toBe(false);
    expect(isOpenIdInteraction(`//evil.test/t/${ID}/oauth/interaction/x`, ID)).toBe(false);
    expect(isOpenIdInteraction(`/t/${ID}/hosted/profile`, ID)).toBe(false);
  });

  it("takes the first of repeated query values", () => {
    expect(firstValue(["a", "b"])).toBe("a");
    expect(firstValue("a")).toBe("a");
    expect(firstValue(undefined)).toBeUndefined();
  });
});

describe("hosted page branding", () => {
  it("maps the default branding onto the elements' custom properties, readable", () => {
    const { displayName, logoUrl, style } = hostedBranding("Acme", DEFAULT_BRANDING);
    expect(displayName).toBe("Acme");
    expect(logoUrl).toBeNull();
    expect(style).toMatchObject({
      "--sesame-color-primary": "#4f46e5",
      "--sesame-color-primary-text": "#ffffff",
      "--sesame-color-background": "#ffffff",
      "--sesame-color-text": "#0f172a",
      "--sesame-color-error": "#b91c1c",
    });
    expect(contrastRatio(style["--sesame-color-border"]!, "#ffffff")).toBeGreaterThanOrEqual(3);
  });

  it("prefers the display name and keeps text readable whatever the tenant picks", () => {
    const { displayName, style } = hostedBranding("Acme", {
      displayName: "Acme Login",
      primaryColor: "#ffeb3b",
      backgroundColor: "#111111",
      textColor: "#222222",
      logoUrl: "https://cdn.acme.test/logo.svg",
    });
    expect(displayName).toBe("Acme Login");
    const background = style["--sesame-color-background"]!;
    expect(contrastRatio(style["--sesame-color-text"]!, background)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(style["--sesame-color-error"]!, background)).toBeGreaterThanOrEqual(4.5);
    expect(
      contrastRatio(style["--sesame-color-primary-text"]!, style["--sesame-color-primary"]!),
    ).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(style["--sesame-color-link"]!, background)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(style["--sesame-color-muted"]!, background)).toBeGreaterThanOrEqual(4.5);
  });

  it("keeps links in the primary colour only where it reads on the background", () => {
    expect(hostedBranding("Acme", DEFAULT_BRANDING).style["--sesame-color-link"]).toBe("#4f46e5");
    const orange = hostedBranding("Acme", { ...DEFAULT_BRANDING, primaryColor: "#ff6600" });
    expect(orange.style["--sesame-color-link"]).toBe("#0f172a");
  });

  it("computes WCAG contrast ratios", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#ffffff")).toBeCloseTo(1, 5);
    expect(readableOn("#ffffff", "#eeeeee")).toBe("#0f172a");
    expect(readableOn("#000000", "#111111")).toBe("#ffffff");
    expect(readableOn("#ffffff", "#333333")).toBe("#333333");
  });
});
