import { describe, expect, it } from "vitest";
import { PASSKEY_ERRORS } from "@/lib/http/presenters/passkey";
import { PLATFORM_STATUS } from "@/lib/http/presenters/platform-status";
import { FLOW_ERRORS, FLOW_ERROR_STATUS } from "@/lib/flows/errors";
import { ALL_ERROR_CODES, AppError, ERROR_CODES, isFault } from ".";

/** The spec's "Errors" texts, which an error thrown without a message carries. */
const SPEC_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  408: "Request Timeout",
  409: "Conflict",
  410: "Gone",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

const isErrorStatus = (status: number) => Number.isInteger(status) && status >= 400 && status <= 599;

describe("error codes", () => {
  it.each(ALL_ERROR_CODES)("%s has a status on every surface", (code) => {
    expect(isErrorStatus(PLATFORM_STATUS[code])).toBe(true);
    expect(isErrorStatus(PASSKEY_ERRORS[code].status)).toBe(true);
    expect(isErrorStatus(FLOW_ERRORS[code].status)).toBe(true);
    expect(Object.keys(FLOW_ERROR_STATUS)).toContain(FLOW_ERRORS[code].code);
  });

  it.each(ALL_ERROR_CODES)("%s carries the spec's text of its platform status by default", (code) => {
    expect(new AppError(code).message).toBe(SPEC_TEXT[PLATFORM_STATUS[code]]);
    expect(ERROR_CODES[code]).toBe(SPEC_TEXT[PLATFORM_STATUS[code]]);
  });

  it("only the internal and database codes are faults (logged; 500, and 503 for the database)", () => {
    const faults = ALL_ERROR_CODES.filter(isFault);
    expect(faults.sort()).toEqual(["DATABASE_UNAVAILABLE", "INTERNAL"]);
    for (const code of ALL_ERROR_CODES) {
      const answers500 = [PLATFORM_STATUS[code], PASSKEY_ERRORS[code].status, FLOW_ERRORS[code].status];
      expect(answers500.map((status) => status >= 500)).toEqual([
        isFault(code),
        isFault(code),
        isFault(code),
      ]);
    }
  });

  it("a message of its own and the details replace nothing else", () => {
    const error = new AppError("PASSCODE_INVALID", "wrong", {
      details: ["2 attempts left"],
      retryAfterSeconds: 3,
    });
    expect(error).toMatchObject({
      name: "AppError",
      code: "PASSCODE_INVALID",
      message: "wrong",
      details: ["2 attempts left"],
      retryAfterSeconds: 3,
    });
  });
});
