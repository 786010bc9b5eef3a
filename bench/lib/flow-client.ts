/**
 * The flow API's passkey login as @teamhanko/hanko-elements drives it (its frontend SDK's requests,
 * read from @teamhanko/hanko-frontend-sdk): `POST /t/{tenant}/login` → `preflight`, whose auto step
 * sends `register_client_capabilities` → `login_init`; then either the "Sign in with a passkey" button
 * (`webauthn_generate_request_options` → `login_passkey`, whose auto step signs and sends
 * `webauthn_verify_assertion_response`) or, with conditional UI, the assertion to the request options
 * `login_init` already carries. `success` sets the session cookie. Every action posts
 * `{input_data, csrf_token}` to the action's href, input_data being the inputs' default values overlaid
 * with what the client fills in, as the SDK builds it; the browser sends its Origin.
 */
import {
  WebAuthnSoftwareAuthenticator,
  type AuthenticationOptionsLike,
  type RegistrationOptionsLike,
} from "@/tests/helpers/webauthn-software-authenticator";
import {
  expectStatus,
  stepTimer,
  type BenchContext,
  type BenchHttp,
  type CeremonyTiming,
  type HttpAnswer,
  type Prepared,
} from "./ceremony-bench";

/** The steps of one ceremony, as the JSON describes them. */
export const FLOW_STEPS = {
  start: "POST /t/{tenant}/login (no body) → preflight",
  capabilities: "register_client_capabilities (the SDK's auto step) → login_init",
  options: "webauthn_generate_request_options (the passkey button) → login_passkey; none with --autofill",
  verify:
    "webauthn_verify_assertion_response {assertion_response} (signed by the software authenticator) → success + session cookie",
};

/** The tenant default cookie name (the benchmark does not change it). */
const COOKIE_NAME = "hanko";

interface FlowState {
  name: string;
  status: number;
  payload?: { request_options?: { publicKey: AuthenticationOptionsLike } };
  actions: Record<string, { href: string; inputs: Record<string, { name: string; value?: unknown }> }>;
  csrf_token: string;
  error?: { code: string; message: string };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The session token a `success` answer carries: the tenant's cookie, or `X-Auth-Token` (cross-domain). */
function sessionTokenOf(answer: HttpAnswer): string | undefined {
  const header = answer.headers["x-auth-token"];
  if (typeof header === "string" && header) return header;
  for (const cookie of answer.headers["set-cookie"] ?? []) {
    const [pair = ""] = cookie.split(";");
    const separator = pair.indexOf("=");
    if (pair.slice(0, separator).trim() === COOKIE_NAME && pair.slice(separator + 1)) {
      return pair.slice(separator + 1);
    }
  }
  return undefined;
}

class FlowClient {
  private readonly base: string;
  private readonly headers: Record<string, string>;

  constructor(
    private readonly http: BenchHttp,
    tenantId: string,
    origin: string,
  ) {
    this.base = `/t/${tenantId}`;
    // A browser sends its Origin on these cross-origin POSTs; Sesame refuses them without one.
    this.headers = { origin };
  }

  private async state(answer: Promise<HttpAnswer>, expected: string, what: string) {
    const response = await answer;
    const state = response.body as FlowState | undefined;
    if (response.status !== 200 || state?.name !== expected) {
      throw new Error(`${what}: HTTP ${response.status}, expected ${expected}: ${JSON.stringify(state)}`);
    }
    return { state, response };
  }

  start(flow: "login") {
    return this.state(
      this.http.request("POST", `${this.base}/${flow}`, undefined, this.headers),
      "preflight",
      flow,
    );
  }

  /** Runs an action `state` offers, as the SDK does; expects the state named `expected`. */
  act(state: FlowState, action: string, input: Record<string, unknown>, expected: string) {
    const offered = state.actions[action];
    if (!offered) {
      throw new Error(`${action} not offered in ${state.name}: ${Object.keys(state.actions).join(", ")}`);
    }
    const defaults = Object.fromEntries(
      Object.values(offered.inputs)
        .filter((spec) => spec.value !== undefined)
        .map((spec) => [spec.name, spec.value]),
    );
    const body = { input_data: { ...defaults, ...input }, csrf_token: state.csrf_token };
    return this.state(
      this.http.request("POST", `${this.base}${offered.href}`, body, this.headers),
      expected,
      action,
    );
  }
}

/**
 * Issue 27's flow login for `npm run bench`: the four requests with conditional mediation reported
 * available and the passkey button pressed (start, capabilities, request options, verify), timed as the
 * Passkey API's ceremonies are: `initialize` the three requests before signing, `finalize` the verify.
 */
export async function flowButtonLogin(
  http: BenchHttp,
  tenantId: string,
  origin: string,
  authenticator: WebAuthnSoftwareAuthenticator,
): Promise<{ initialize: number; sign: number; finalize: number; total: number }> {
  const flows = new FlowClient(http, tenantId, origin);
  const t0 = performance.now();
  const { state: preflight } = await flows.start("login");
  const capabilities = {
    webauthn_available: true,
    webauthn_conditional_mediation_available: true,
    webauthn_platform_authenticator_available: true,
  };
  const { state: init } = await flows.act(
    preflight,
    "register_client_capabilities",
    capabilities,
    "login_init",
  );
  const { state: ask } = await flows.act(init, "webauthn_generate_request_options", {}, "login_passkey");
  const publicKey = ask.payload?.request_options?.publicKey;
  if (!publicKey) throw new Error("login_passkey carries no request options");
  const t1 = performance.now();
  const assertion = await authenticator.login(publicKey, { origin });
  const t2 = performance.now();
  const { response } = await flows.act(
    ask,
    "webauthn_verify_assertion_response",
    { assertion_response: assertion },
    "success",
  );
  const t3 = performance.now();
  if (!sessionTokenOf(response)) throw new Error("success without a session token");
  return { initialize: t1 - t0, sign: t2 - t1, finalize: t3 - t2, total: t3 - t0 };
}

/** One passkey login by flow; returns its timing and the session token it ended with. */
async function flowLogin(
  flows: FlowClient,
  authenticator: WebAuthnSoftwareAuthenticator,
  origin: string,
  autofill: boolean,
): Promise<{ timing: CeremonyTiming; token: string; userId: string }> {
  const timer = stepTimer();
  const { state: preflight } = await timer.step("start", () => flows.start("login"));
  const { state: init } = await timer.step("capabilities", () =>
    flows.act(
      preflight,
      "register_client_capabilities",
      {
        webauthn_available: true,
        webauthn_conditional_mediation_available: autofill,
        webauthn_platform_authenticator_available: true,
      },
      "login_init",
    ),
  );
  // With conditional UI, login_init carries the request options; else the passkey button asks for them.
  const ask = autofill
    ? init
    : (
        await timer.step("options", () =>
          flows.act(init, "webauthn_generate_request_options", {}, "login_passkey"),
        )
      ).state;
  const publicKey = ask.payload?.request_options?.publicKey;
  if (!publicKey) throw new Error(`${ask.name} carries no request options`);
  const { state: done, response } = await timer.step("verify", async () => {
    const assertion = await authenticator.login(publicKey, { origin });
    return flows.act(ask, "webauthn_verify_assertion_response", { assertion_response: assertion }, "success");
  });
  const token = sessionTokenOf(response);
  if (!token) throw new Error("success without a session token");
  const user = (done.payload as { user?: { user_id?: string } } | undefined)?.user;
  return { timing: timer.done(), token, userId: String(user?.user_id) };
}

/**
 * Platform users by the fastest way over HTTP: `POST /admin/users` (a verified primary email), an admin
 * session (`POST /admin/sessions`), then the public API's WebAuthn registration under that session with
 * a software authenticator (sign counts stay 0, so concurrent logins of one passkey never conflict).
 */
async function seedUsers(
  { http, tenant, origin }: BenchContext,
  count: number,
): Promise<{ userId: string; authenticator: WebAuthnSoftwareAuthenticator }[]> {
  const t = `/t/${tenant.tenantId}`;
  const admin = bearer(tenant.adminApiKey);
  const seeded = [];
  for (let i = 0; i < count; i++) {
    const emails = [{ address: `bench-flow-${i}@example.com`, is_primary: true, is_verified: true }];
    const user = await expectStatus(
      http.request("POST", `${t}/admin/users`, { emails }, admin),
      200,
      "admin/users",
    );
    const userId = String(user.id);
    const { session_token: token } = await expectStatus(
      http.request("POST", `${t}/admin/sessions`, { user_id: userId }, admin),
      200,
      "admin/sessions",
    );
    if (typeof token !== "string") throw new Error("admin/sessions returned no session_token");
    const authenticator = new WebAuthnSoftwareAuthenticator({ counterStep: 0 });
    const init = await expectStatus(
      http.request("POST", `${t}/webauthn/registration/initialize`, undefined, bearer(token)),
      200,
      "webauthn/registration/initialize",
    );
    const attestation = await authenticator.register(init.publicKey as RegistrationOptionsLike, {
      origin,
      fmt: "none",
    });
    await expectStatus(
      http.request("POST", `${t}/webauthn/registration/finalize`, attestation, bearer(token)),
      200,
      "webauthn/registration/finalize",
    );
    seeded.push({ userId, authenticator });
  }
  return seeded;
}

/**
 * Seeds the users, and gives each a virtual client that logs in by flow. The final check validates the
 * newest session token of the first client with `POST /t/{tenant}/sessions/validate` (a backend's call).
 */
export function prepareFlowLogins(autofill: boolean) {
  return async (context: BenchContext): Promise<Prepared> => {
    const users = await seedUsers(context, context.users);
    const flows = new FlowClient(context.http, context.tenant.tenantId, context.origin);
    const last: { token: string; userId: string }[] = [];
    const clients = users.map(({ userId, authenticator }, index) => async () => {
      const login = await flowLogin(flows, authenticator, context.origin, autofill);
      if (login.userId !== userId) throw new Error(`logged in as ${login.userId}, not ${userId}`);
      last[index] = { token: login.token, userId };
      return login.timing;
    });
    const check = async () => {
      const newest = last[0];
      if (!newest) throw new Error("no login completed");
      const validation = await expectStatus(
        context.http.request(
          "POST",
          `/t/${context.tenant.tenantId}/sessions/validate`,
          { session_token: newest.token },
          { origin: context.origin },
        ),
        200,
        "sessions/validate",
      );
      if (validation.is_valid !== true || validation.user_id !== newest.userId) {
        throw new Error(`the flow's session token does not validate: ${JSON.stringify(validation)}`);
      }
      return { sessionValidate: "is_valid, user_id matches", userId: newest.userId };
    };
    return { clients, check };
  };
}
