/**
 * The platform side of a tenant over HTTP, as its back end and browser would drive it: users and their
 * first session through the admin API (admin key), a passkey added with the public API's WebAuthn
 * registration under that session, webhooks through the admin API, and the public API's WebAuthn login,
 * which issues a platform session (and so emits `session.create.flow`).
 */
import {
  WebAuthnSoftwareAuthenticator,
  type AuthenticationOptionsLike,
  type RegistrationOptionsLike,
} from "@/tests/helpers/webauthn-software-authenticator";
import { expectOk, type CeremonyTiming, type Ceremony, type HttpResponse, type Target } from "./client";

/** A platform user of the benchmark, with the authenticator holding its passkey. */
export interface PlatformUser {
  userId: string;
  authenticator: WebAuthnSoftwareAuthenticator;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function expectStatus(
  response: Promise<HttpResponse>,
  status: number,
  what: string,
): Promise<Record<string, unknown>> {
  const { status: got, body } = await response;
  if (got !== status || typeof body !== "object" || body === null) {
    throw new Error(`${what}: HTTP ${got} ${JSON.stringify(body)}`);
  }
  return body as Record<string, unknown>;
}

/**
 * `count` platform users: `POST /admin/users` (a verified primary email), `POST /admin/sessions` for a
 * session token, then `webauthn/registration/initialize` + `finalize` with `Authorization: Bearer` and a
 * software authenticator (sign counts stay 0, so concurrent logins with one passkey never conflict).
 * Each user keeps that admin session (one of its session-limit slots).
 */
export async function seedPlatformUsers(
  target: Target,
  adminApiKey: string,
  count: number,
  label: string,
): Promise<PlatformUser[]> {
  const t = `/t/${target.tenantId}`;
  const admin = bearer(adminApiKey);
  const seeded: PlatformUser[] = [];
  for (let i = 0; i < count; i++) {
    const address = `${label}-${i}@example.com`;
    const user = await expectStatus(
      target.client.request(
        "POST",
        `${t}/admin/users`,
        { emails: [{ address, is_primary: true, is_verified: true }] },
        admin,
      ),
      200,
      "admin/users",
    );
    const userId = String(user.id);
    const { session_token: token } = await expectOk(
      target.client.request("POST", `${t}/admin/sessions`, { user_id: userId }, admin),
      "admin/sessions",
    );
    if (typeof token !== "string") throw new Error("admin/sessions returned no session_token");
    const authenticator = new WebAuthnSoftwareAuthenticator({ counterStep: 0 });
    const init = await expectOk(
      target.client.request("POST", `${t}/webauthn/registration/initialize`, undefined, bearer(token)),
      "webauthn/registration/initialize",
    );
    const attestation = await authenticator.register(init.publicKey as RegistrationOptionsLike, {
      origin: target.origin,
      fmt: "none",
    });
    await expectOk(
      target.client.request("POST", `${t}/webauthn/registration/finalize`, attestation, bearer(token)),
      "webauthn/registration/finalize",
    );
    seeded.push({ userId, authenticator });
  }
  return seeded;
}

/** `POST /admin/webhooks` `{callback, events}` → the webhook's id. */
export async function createWebhook(
  target: Target,
  adminApiKey: string,
  callback: string,
  events: string[],
): Promise<string> {
  const created = await expectStatus(
    target.client.request(
      "POST",
      `/t/${target.tenantId}/admin/webhooks`,
      { callback, events },
      bearer(adminApiKey),
    ),
    201,
    "admin/webhooks",
  );
  return String(created.id);
}

/**
 * The public API's discoverable WebAuthn login (`webauthn/login/initialize` with an empty body → the
 * authenticator signs → `webauthn/login/finalize`), which starts a platform session. `onLogin` gets the
 * user id of every completed login (for counting the webhook deliveries it must cause).
 */
export function publicLoginCeremony(onLogin: (userId: string) => void): Ceremony {
  return async (target, authenticator): Promise<CeremonyTiming> => {
    const base = `/t/${target.tenantId}/webauthn/login`;
    const t0 = performance.now();
    const init = await expectOk(
      target.client.request("POST", `${base}/initialize`),
      "webauthn/login/initialize",
    );
    const t1 = performance.now();
    const assertion = await authenticator.login(init.publicKey as AuthenticationOptionsLike, {
      origin: target.origin,
    });
    const t2 = performance.now();
    const result = await expectOk(
      target.client.request("POST", `${base}/finalize`, assertion),
      "webauthn/login/finalize",
    );
    const t3 = performance.now();
    if (typeof result.user_id !== "string") throw new Error("webauthn/login/finalize returned no user_id");
    onLogin(result.user_id);
    return { initialize: t1 - t0, sign: t2 - t1, finalize: t3 - t2, total: t3 - t0 };
  };
}
