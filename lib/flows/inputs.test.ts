import { describe, expect, it } from "vitest";
import { parseActionParam } from "./engine";
import { validateInputs } from "./inputs";

describe("validateInputs", () => {
  it("checks required, types and lengths, and names the problem per input", () => {
    const { values, errors } = validateInputs(
      [
        { name: "email", type: "email", required: true },
        { name: "username", type: "string", minLength: 3, maxLength: 5 },
        { name: "flag", type: "boolean", required: true },
        { name: "doc", type: "json" },
        { name: "n", type: "number" },
      ],
      { email: "  Ada@Example.COM ", username: "ab", flag: "yes", doc: "x", n: Number.NaN },
    );
    expect(values).toEqual({ email: "ada@example.com" });
    expect(errors).toEqual({
      username: expect.objectContaining({ code: "value_too_short_error" }),
      flag: expect.objectContaining({ code: "value_invalid_error" }),
      doc: expect.objectContaining({ code: "value_invalid_error" }),
      n: expect.objectContaining({ code: "value_invalid_error" }),
    });
  });

  it("reports missing required values, blank strings included, and ignores undeclared names", () => {
    const { values, errors } = validateInputs(
      [
        { name: "code", type: "string", required: true },
        { name: "optional", type: "string" },
      ],
      { code: "   ", optional: "", extra: "ignored" },
    );
    expect(values).toEqual({});
    expect(errors).toEqual({ code: expect.objectContaining({ code: "value_missing_error" }) });
  });

  it("keeps passwords as typed, counts characters not bytes, bounds undeclared lengths", () => {
    const specs = [
      { name: "password", type: "password" as const, minLength: 8 },
      { name: "name", type: "string" as const, maxLength: 3 },
      { name: "free", type: "string" as const },
      { name: "mail", type: "email" as const },
    ];
    expect(validateInputs(specs, { password: " secret  pw ", name: "äöü" }).values).toEqual({
      password: " secret  pw ",
      name: "äöü",
    });
    const { errors } = validateInputs(specs, { free: "x".repeat(1025), mail: "not an address" });
    expect(errors.free?.code).toBe("value_too_long_error");
    expect(errors.mail?.code).toBe("value_invalid_error");
  });

  it("accepts only allowed values when the input lists them", () => {
    const spec = { name: "m", type: "string" as const, allowedValues: [{ value: "a", name: "A" }] };
    expect(validateInputs([spec], { m: "a" }).values).toEqual({ m: "a" });
    expect(validateInputs([spec], { m: "b" }).errors.m?.code).toBe("value_invalid_error");
  });
});

describe("parseActionParam", () => {
  it("splits name@id at the last @ and accepts %40", () => {
    const id = "2f0a4c9e-8b1d-4c1e-9d7a-1b2c3d4e5f60";
    expect(parseActionParam(`verify_passcode@${id}`)).toEqual({ action: "verify_passcode", flowId: id });
    expect(parseActionParam(`verify_passcode%40${id}`)).toEqual({ action: "verify_passcode", flowId: id });
    for (const bad of ["", "verify_passcode", "@id", "name@"]) expect(parseActionParam(bad)).toBeUndefined();
  });
});
