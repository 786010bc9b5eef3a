"use server";

import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { headers } from "next/headers";
import { z } from "zod";
import { actionError, type ActionResult } from "@/lib/console/guard";
import { requestContext } from "@/lib/request/context";
import { beginEnrolment, beginSignIn, describeEnrolment, finishEnrolment } from "@/lib/operators";

/**
 * The console's only actions open to a signed-out browser: sign-in options (the assertion then goes
 * to next-auth's credentials callback) and the enrolment of a passkey with a one-time link.
 */

const Token = z.string().min(20).max(100);
const Json = z.record(z.string(), z.unknown());

const context = async () => requestContext({ headers: await headers() });

async function attempt<T>(work: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await work() };
  } catch (error) {
    return actionError(error);
  }
}

export async function signInOptions() {
  return attempt(async () => beginSignIn(await context()));
}

export async function enrolmentInfo(token: string) {
  return attempt(async () => describeEnrolment(Token.parse(token)));
}

export async function enrolmentOptions(token: string, email: string | undefined) {
  return attempt(async () => beginEnrolment(Token.parse(token), email, await context()));
}

export async function completeEnrolment(token: string, response: unknown) {
  return attempt(async () => {
    const operator = await finishEnrolment(
      Token.parse(token),
      Json.parse(response) as unknown as RegistrationResponseJSON,
      await context(),
    );
    return { email: operator.email };
  });
}
