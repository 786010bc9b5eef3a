import { describe, expect, it } from "vitest";
import { dispatch, eventName, EVENTS, listen, type EventKey } from "./events";
import { FLOW_ERRORS } from "@/lib/flows/errors";
import { BUILT_IN, errorText, translator } from "./i18n";

describe("translator", () => {
  it("has a German text for every English key, and none left in English by mistake", () => {
    const en = BUILT_IN.en!;
    const de = BUILT_IN.de!;
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    const same = Object.keys(en).filter((key) => en[key as keyof typeof en] === de[key as keyof typeof de]);
    // Words that are the same in both languages.
    expect(same.sort()).toEqual(["input.code", "input.otp_code", "input.token", "text.passkeys"]);
  });

  it("picks the language, falls back from a region to the language and then to English", () => {
    expect(translator("de")("state.login_init")).toBe("Anmelden");
    expect(translator("de-CH")("state.login_init")).toBe("Anmelden");
    expect(translator("fr")("state.login_init")).toBe("Sign in");
    expect(translator("en")("no.such.key")).toBe("no.such.key");
  });

  it("lets custom translations add a language and override single texts, the rest from English", () => {
    const t = translator("fr", { fr: { "state.login_init": "Connexion" } });
    expect(t("state.login_init")).toBe("Connexion");
    expect(t("action.back")).toBe("Back");
    expect(translator("de", { de: { "action.back": "Zurückgehen" } })("action.back")).toBe("Zurückgehen");
  });

  it("fills placeholders", () => {
    expect(translator("de")("text.lastUsed", { date: "heute" })).toBe("zuletzt genutzt heute");
    expect(translator("en")("text.resendIn", {})).toBe("You can ask for a new code in {seconds} s.");
  });
});

describe("errorText", () => {
  it("words a locked account plainly in English and German, from the message Sesame sends (issue 29)", () => {
    const locked = { code: FLOW_ERRORS.USER_LOCKED.code, message: FLOW_ERRORS.USER_LOCKED.message! };
    expect(errorText(translator("en"), locked)).toBe(
      "This account is locked. Contact the site's support to have it unlocked.",
    );
    expect(errorText(translator("de"), locked)).toMatch(/^Dieses Konto ist gesperrt\. Wenden Sie sich/);
    // Any other refusal with the same code keeps the code's words; unknown codes show Sesame's message.
    const other = { code: "operation_not_permitted_error", message: "Operation not permitted: x" };
    expect(errorText(translator("en"), other)).toBe("This is not possible right now.");
    expect(errorText(translator("en"), { code: "new_code", message: "As sent" })).toBe("As sent");
  });
});

describe("events", () => {
  it("names events <prefix>-<event>, as the spec's auth-success and auth-error", () => {
    expect(eventName("sesame", "authSuccess")).toBe("sesame-auth-success");
    expect(eventName("acme", "authError")).toBe("acme-auth-error");
    expect((Object.keys(EVENTS) as EventKey[]).map((key) => eventName("x", key))).toEqual([
      "x-auth-success",
      "x-auth-error",
      "x-login",
      "x-registration",
      "x-logout",
      "x-session-expired",
    ]);
  });

  it("dispatches bubbling, composed CustomEvents with the detail, heard by listen() on document", () => {
    const target = new EventTarget();
    const seen: Event[] = [];
    target.addEventListener("sesame-logout", (event) => seen.push(event));
    dispatch(target, "sesame", "logout", { userId: "u1" });
    expect(seen).toHaveLength(1);
    const [event] = seen as CustomEvent[];
    expect(event).toMatchObject({ bubbles: true, composed: true, detail: { userId: "u1" } });

    const heard: unknown[] = [];
    const document = new EventTarget();
    Object.assign(globalThis, { document });
    const stop = listen("sesame", "sessionExpired", (detail) => heard.push(detail));
    dispatch(document, "sesame", "sessionExpired", { userId: "u2" });
    stop();
    dispatch(document, "sesame", "sessionExpired", { userId: "u3" });
    expect(heard).toEqual([{ userId: "u2" }]);
    Reflect.deleteProperty(globalThis, "document");
  });
});
