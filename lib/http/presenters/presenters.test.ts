import { describe, expect, it } from "vitest";
import { AppError, DatabaseUnavailable } from "@/lib/errors";
import { FlowError } from "@/lib/flows/errors";
import { passcodeErrors } from "@/lib/passcodes/errors";
import { PasswordLocked } from "@/lib/passwords/verify";
import { presentError } from ".";

/** Status, body and the headers that matter of one presented error. */
async function wire(surface: Parameters<typeof presentError>[0], error: AppError) {
  const res = presentError(surface, error);
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown>,
    retryAfter: res.headers.get("retry-after"),
    wwwAuthenticate: res.headers.get("www-authenticate"),
  };
}

/** The flow API's error state (no flow reached) for a code and message. */
const flowBody = (code: string, status: number, message: string) => ({
  name: "error",
  status,
  actions: {},
  csrf_token: "",
  error: { code, message },
  links: [],
});

describe("domain codes on each surface", () => {
  it("a wrong passcode: 401 on the platform and Passkey surfaces, Hanko's `unauthorized` in a flow", async () => {
    const error = passcodeErrors.invalid(2);
    expect(await wire("public", error)).toMatchObject({
      status: 401,
      body: { code: 401, message: "Unauthorized: passcode invalid (2 attempts left)" },
    });
    expect(await wire("passkey", error)).toMatchObject({
      status: 401,
      body: { title: ["Unauthorized"], details: ["passcode invalid (2 attempts left)"], status: 401 },
    });
    expect(await wire("authenticator", error)).toMatchObject({
      status: 401,
      body: { code: 401, message: "Unauthorized: passcode invalid (2 attempts left)" },
      wwwAuthenticate: 'Bearer realm="sesame", Secret realm="sesame"',
    });
    expect(await wire("flow", error)).toMatchObject({
      status: 401,
      body: flowBody("unauthorized", 401, "Unauthorized"),
    });
  });

  it("a passcode's attempts used up: Hanko's 410 Gone, passcode_max_attempts_reached in a flow", async () => {
    const error = passcodeErrors.maxAttempts();
    expect(await wire("public", error)).toMatchObject({
      status: 410,
      body: { code: 410, message: "Gone: max attempts reached" },
    });
    expect(await wire("flow", error)).toMatchObject({
      status: 401,
      body: { error: { code: "passcode_max_attempts_reached" } },
    });
  });

  it("an expired passcode: 408 Request Timeout, a form error in a flow", async () => {
    const error = passcodeErrors.expired();
    expect(await wire("public", error)).toMatchObject({ status: 408, body: { code: 408 } });
    expect(await wire("flow", error)).toMatchObject({
      status: 408,
      body: { status: 408, error: { code: "form_data_invalid_error" } },
    });
  });

  it("a taken address: 409 Conflict with the reason", async () => {
    const error = new AppError("EMAIL_TAKEN", undefined, {
      details: ["the address belongs to another account"],
    });
    expect(await wire("public", error)).toEqual({
      status: 409,
      body: { code: 409, message: "Conflict: the address belongs to another account" },
      retryAfter: null,
      wwwAuthenticate: null,
    });
    expect(await wire("passkey", error)).toMatchObject({
      status: 409,
      body: { title: ["Conflict"], status: 409 },
    });
  });

  it("a locked password: 403 with the wait, Hanko's refused operation in a flow", async () => {
    const error = new PasswordLocked(30);
    expect(await wire("public", error)).toMatchObject({ status: 403, body: { code: 403 } });
    expect(await wire("flow", error)).toMatchObject({
      status: 403,
      body: { error: { code: "operation_not_permitted_error" } },
    });
  });

  it("an assertion that does not verify: the Passkey API's 401 with Hanko's title", async () => {
    const error = new AppError("CEREMONY_VERIFICATION_FAILED", "failed to validate assertion", {
      details: ["Session has Expired"],
    });
    expect(await wire("passkey", error)).toMatchObject({
      status: 401,
      body: { title: ["failed to validate assertion"], details: ["Session has Expired"], status: 401 },
    });
  });

  it("an unknown device: the Authenticator API's 404 spells `messsage`", async () => {
    const error = new AppError("DEVICE_NOT_FOUND", "device not found");
    expect(await wire("authenticator", error)).toMatchObject({
      status: 404,
      body: { code: 404, messsage: "device not found" },
      wwwAuthenticate: null,
    });
  });

  it("an expired one-time token: 422", async () => {
    const error = new AppError("TOKEN_EXPIRED", "token has expired");
    expect(await wire("public", error)).toMatchObject({
      status: 422,
      body: { code: 422, message: "token has expired" },
    });
  });

  it("a rate limit says when to try again on the platform and flow surfaces", async () => {
    const error = passcodeErrors.locked(12);
    expect(await wire("public", error)).toMatchObject({ status: 429, retryAfter: "12" });
    expect(await wire("flow", error)).toMatchObject({
      status: 429,
      retryAfter: "12",
      body: { error: { code: "rate_limit_exceeded" } },
    });
  });

  it("the database away: 503 with Retry-After in every surface's shape", async () => {
    const error = new DatabaseUnavailable(new Error("ECONNREFUSED"));
    const platform = { status: 503, retryAfter: "5", body: { code: 503, message: "Service Unavailable" } };
    expect(await wire("public", error)).toMatchObject(platform);
    expect(await wire("admin", error)).toMatchObject(platform);
    expect(await wire("health", error)).toMatchObject(platform);
    expect(await wire("authenticator", error)).toMatchObject(platform);
    expect(await wire("passkey", error)).toMatchObject({
      status: 503,
      retryAfter: "5",
      body: { title: ["Service Unavailable"], details: ["Try again later (Retry-After)."], status: 503 },
    });
    expect(await wire("flow", error)).toMatchObject({
      status: 503,
      retryAfter: "5",
      body: flowBody("technical_error", 503, "Something went wrong"),
    });
  });

  it("a fault hides its message in a flow and gets the Passkey API's hint", async () => {
    const error = new AppError("INTERNAL", undefined, { cause: new Error("boom") });
    expect(await wire("flow", error)).toMatchObject({
      status: 500,
      body: flowBody("technical_error", 500, "Something went wrong"),
    });
    expect(await wire("passkey", error)).toMatchObject({
      status: 500,
      body: {
        title: ["Internal Server Error"],
        details: ["Try again later; if the problem persists, contact the operator with the X-Request-Id."],
      },
    });
  });
});

describe("flow errors", () => {
  it("answer with their own flow code and its status", async () => {
    const error = new FlowError("passcode_max_attempts_reached", "Maximum number of attempts reached");
    expect(await wire("flow", error)).toMatchObject({
      status: 401,
      body: flowBody("passcode_max_attempts_reached", 401, "Maximum number of attempts reached"),
    });
  });
});
