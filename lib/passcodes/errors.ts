import { AppError, BadRequest, Unauthorized } from "@/lib/errors";

/** The passcode outcomes as Hanko 2.x answers them (its SDK reads 401 and 410). */
export const passcodeErrors = {
  unknownUser: () => new BadRequest(undefined, { details: ["user not found"] }),
  emailNotAvailable: () =>
    new BadRequest(undefined, { details: ["the specified email_id is not available"] }),
  noEmail: () => new BadRequest(undefined, { details: ["the user has no primary email: send an email_id"] }),
  otherUsersSession: () =>
    new AppError("FORBIDDEN", undefined, { details: ["the session belongs to another user"] }),
  sessionNeeded: () =>
    new AppError("FORBIDDEN", undefined, {
      details: ["verifying an additional address needs a session of its user"],
    }),
  notFound: () => new Unauthorized({ details: ["passcode not found"] }),
  used: () => new Unauthorized({ details: ["passcode already used"] }),
  invalid: (left: number) =>
    new Unauthorized({
      details: [`passcode invalid (${left} attempt${left === 1 ? "" : "s"} left)`],
    }),
  expired: () =>
    new AppError("PASSCODE_EXPIRED", undefined, {
      details: ["passcode expired or replaced by a newer one: ask for a new code"],
    }),
  maxAttempts: () => new AppError("GONE", undefined, { details: ["max attempts reached"] }),
  /** A new code for an address whose wrong attempts are used up, before its latest code expired. */
  locked: (retryAfterSeconds: number) =>
    new AppError("RATE_LIMITED", undefined, {
      details: [`max attempts reached for this address: ask for a new code in ${retryAfterSeconds} seconds`],
      retryAfterSeconds,
    }),
};
