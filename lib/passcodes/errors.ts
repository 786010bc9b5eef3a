import { AppError } from "@/lib/errors";

/** The passcode outcomes, each with its own code (Hanko 2.x's answers are in the presenters' tables). */
export const passcodeErrors = {
  unknownUser: () => new AppError("USER_UNKNOWN", undefined, { details: ["user not found"] }),
  emailNotAvailable: () =>
    new AppError("PASSCODE_EMAIL_UNAVAILABLE", undefined, {
      details: ["the specified email_id is not available"],
    }),
  noEmail: () =>
    new AppError("PASSCODE_EMAIL_MISSING", undefined, {
      details: ["the user has no primary email: send an email_id"],
    }),
  otherUsersSession: () =>
    new AppError("NOT_SESSION_USER", undefined, { details: ["the session belongs to another user"] }),
  sessionNeeded: () =>
    new AppError("SESSION_REQUIRED", undefined, {
      details: ["verifying an additional address needs a session of its user"],
    }),
  notFound: () => new AppError("PASSCODE_NOT_FOUND", undefined, { details: ["passcode not found"] }),
  used: () => new AppError("PASSCODE_USED", undefined, { details: ["passcode already used"] }),
  invalid: (left: number) =>
    new AppError("PASSCODE_INVALID", undefined, {
      details: [`passcode invalid (${left} attempt${left === 1 ? "" : "s"} left)`],
    }),
  expired: () =>
    new AppError("PASSCODE_EXPIRED", undefined, {
      details: ["passcode expired or replaced by a newer one: ask for a new code"],
    }),
  maxAttempts: () =>
    new AppError("PASSCODE_ATTEMPTS_EXCEEDED", undefined, { details: ["max attempts reached"] }),
  /** A new code for an address whose wrong attempts are used up, before its latest code expired. */
  locked: (retryAfterSeconds: number) =>
    new AppError("RATE_LIMITED", undefined, {
      details: [`max attempts reached for this address: ask for a new code in ${retryAfterSeconds} seconds`],
      retryAfterSeconds,
    }),
};
