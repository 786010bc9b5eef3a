import { describe, expect, it } from "vitest";
import { defaultCredentialName } from "./credential";

const at = new Date("2026-11-28T10:00:00Z");

/** Issue 29, point 7: a credential's default name says what is known, never `cred-<id>`. */
describe("defaultCredentialName", () => {
  it.each([
    ["iCloud Keychain", {}, {}, "iCloud Keychain"],
    [undefined, { browser: "Chrome", system: "Linux" }, {}, "Passkey on Chrome, Linux, added 28 Nov"],
    [undefined, { system: "Android" }, {}, "Passkey on Android, added 28 Nov"],
    [
      undefined,
      { browser: "Firefox", system: "Windows" },
      { isMfa: true },
      "Security key on Firefox, Windows, added 28 Nov",
    ],
    [undefined, {}, {}, "Passkey added 28 Nov"],
  ])("%s %j %j → %s", (authenticator, device, options, expected) => {
    expect(defaultCredentialName(authenticator, device, { ...options, at })).toBe(expected);
  });
});
