import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { FlowError, flowAnswerOf, refusalOf, type InputErrorRules } from "./errors";

const verifyPasscode: InputErrorRules = {
  PASSCODE_INVALID: { input: "code", code: "passcode_invalid", message: "The passcode is invalid" },
};

describe("refusalOf", () => {
  it("answers a FlowError with its own code, message and input", () => {
    const error = new FlowError("otp_code_invalid", "The code is invalid", { input: "otp_code" });
    expect(refusalOf(error)).toEqual({
      code: "otp_code_invalid",
      message: "The code is invalid",
      input: "otp_code",
    });
  });

  it("puts a code the action declared on its input, with the rule's code and message", () => {
    const error = new AppError("PASSCODE_INVALID", undefined, { details: ["2 attempts left"] });
    expect(refusalOf(error, verifyPasscode)).toEqual({
      code: "passcode_invalid",
      message: "The passcode is invalid (2 attempts left)",
      input: "code",
    });
  });

  it("takes the table's flow code and the details as message when the rule names neither", () => {
    const error = new AppError("EMAIL_TAKEN", undefined, {
      details: ["the address is already one of yours"],
    });
    expect(refusalOf(error, { EMAIL_TAKEN: { input: "email" } })).toEqual({
      code: "email_already_exists",
      message: "the address is already one of yours",
      input: "email",
    });
  });

  it("answers a code the action did not declare as FLOW_ERRORS says, on the flow", () => {
    const error = new AppError("PASSCODE_ATTEMPTS_EXCEEDED", undefined, {
      details: ["max attempts reached"],
    });
    expect(refusalOf(error, verifyPasscode)).toEqual({
      code: "passcode_max_attempts_reached",
      message: "Maximum number of attempts reached (max attempts reached)",
    });
  });
});

describe("flowAnswerOf", () => {
  it("gives a FlowError the status of its flow code", () => {
    expect(flowAnswerOf(new FlowError("flow_expired_error", "The flow has expired"))).toEqual({
      code: "flow_expired_error",
      status: 410,
    });
  });
});
