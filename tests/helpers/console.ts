import {
  createOperator,
  beginEnrolment,
  beginSignIn,
  consoleOrigin,
  finishEnrolment,
  finishSignIn,
} from "@/lib/operators";
import { WebAuthnSoftwareAuthenticator } from "./webauthn-software-authenticator";

/**
 * Console server actions run in-process: the operator is real (created, enrolled with a passkey and signed
 * in through lib/operators, so its operator_sessions row is checked on every action); only Next's request
 * plumbing is stood in for by the test file (`vi.mock` of `next-auth`'s getServerSession, `next/headers`
 * and `next/cache`), with `consoleSession` as the cookie's content.
 */
export const consoleSession: { sid?: string } = {};

const context = { ip: "127.0.0.1", userAgent: "vitest" };

/** A new operator with a passkey, signed in: its session id becomes the console cookie's. */
export async function signInOperator(
  email: string,
  role: "owner" | "admin" | "viewer" = "owner",
  tenantIds: string[] = [],
) {
  const { enrolment } = await createOperator({ email, role, tenantIds }, "cli");
  const token = new URL(enrolment.url).hash.slice(1);
  const authenticator = new WebAuthnSoftwareAuthenticator();
  const response = await authenticator.register(await beginEnrolment(token, undefined, context), {
    origin: consoleOrigin(),
  });
  await finishEnrolment(token, response, context);
  const signedIn = await finishSignIn(
    await authenticator.login(await beginSignIn(context), { origin: consoleOrigin() }),
    context,
  );
  consoleSession.sid = signedIn.sessionId;
  return { operator: signedIn.operator, sessionId: signedIn.sessionId, authenticator };
}

/** The vi.mock factories of Next's request plumbing (see above). */
export const nextMocks = {
  nextAuth: async (original: () => Promise<Record<string, unknown>>) => ({
    ...(await original()),
    getServerSession: async () => (consoleSession.sid ? { sid: consoleSession.sid } : null),
  }),
  headers: () => ({
    headers: async () => new Headers({ "user-agent": "vitest console", "x-forwarded-for": "127.0.0.1" }),
    cookies: async () => ({ get: () => undefined, getAll: () => [] }),
  }),
  cache: () => ({ revalidatePath: () => undefined, revalidateTag: () => undefined }),
};
