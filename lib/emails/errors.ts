import { AppError } from "@/lib/errors";

/** The user already has the tenant's maximum number of addresses. */
export class EmailLimitReached extends AppError {
  constructor(readonly max: number) {
    super("EMAIL_LIMIT_REACHED", undefined, { details: [`max number of email addresses reached (${max})`] });
  }
}

/** The address is already the user's own (`mine`) or another account's (more than a claim on it). */
export class EmailTaken extends AppError {
  constructor(readonly mine: boolean) {
    super("EMAIL_TAKEN", undefined, {
      details: [mine ? "the address is already one of yours" : "the address belongs to another account"],
    });
  }
}
