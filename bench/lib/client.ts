/**
 * The load generator: a keep-alive `node:http` client (cheaper per request than fetch, so it takes
 * less CPU from the server on a small machine), passkey registration, and the closed-loop login
 * ceremony driven by software authenticators that sign each fresh challenge.
 */
import http from "node:http";
import {
  WebAuthnSoftwareAuthenticator,
  type AuthenticationOptionsLike,
  type RegistrationOptionsLike,
} from "@/tests/helpers/webauthn-software-authenticator";

export interface HttpResponse {
  status: number;
  body: unknown;
}

export class HttpClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise<HttpResponse>((resolve, reject) => {
      const req = http.request(
        {
          host: this.host,
          port: this.port,
          method,
          path,
          agent: this.agent,
          headers: {
            ...headers,
            ...(payload
              ? { "content-type": "application/json", "content-length": payload.length }
              : { "content-length": 0 }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              // not JSON: keep the text for the error message
            }
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

export async function expectOk(
  response: Promise<HttpResponse>,
  what: string,
): Promise<Record<string, unknown>> {
  const { status, body } = await response;
  if (status !== 200 || typeof body !== "object" || body === null) {
    throw new Error(`${what}: HTTP ${status} ${JSON.stringify(body)}`);
  }
  return body as Record<string, unknown>;
}

export interface Target {
  client: HttpClient;
  tenantId: string;
  /** The origin the tenant allows (http://localhost:<port>), used in clientDataJSON. */
  origin: string;
}

/** Registers one passkey per user over HTTP and returns their authenticators (discoverable login). */
export async function registerUsers(
  target: Target,
  passkeyApiKey: string,
  count: number,
): Promise<WebAuthnSoftwareAuthenticator[]> {
  const base = `/passkey/${target.tenantId}/registration`;
  const authenticators: WebAuthnSoftwareAuthenticator[] = [];
  for (let i = 0; i < count; i++) {
    // counterStep 0: sign counts stay 0, so concurrent logins with one credential never conflict.
    const authenticator = new WebAuthnSoftwareAuthenticator({ counterStep: 0 });
    const userId = benchUserId(i);
    const init = await expectOk(
      target.client.request(
        "POST",
        `${base}/initialize`,
        { user_id: userId, username: `${userId}@example.com` },
        { apiKey: passkeyApiKey },
      ),
      "registration/initialize",
    );
    const attestation = await authenticator.register(init.publicKey as RegistrationOptionsLike, {
      origin: target.origin,
      fmt: "none",
    });
    await expectOk(target.client.request("POST", `${base}/finalize`, attestation), "registration/finalize");
    authenticators.push(authenticator);
  }
  return authenticators;
}

export interface CeremonyTiming {
  /** initialize request, ms */
  initialize: number;
  /** authenticator signing in the client, ms */
  sign: number;
  /** finalize request, ms */
  finalize: number;
  /** the whole ceremony, ms */
  total: number;
}

/** The user id `registerUsers` gave its `index`-th user. */
export const benchUserId = (index: number) => `bench-user-${index}`;

/**
 * One login: initialize → sign the fresh challenge → finalize (a token comes back). Discoverable (an
 * empty initialize body) unless `forUser` names the user and the passkey API key, as a relying party's
 * backend asks for one user's login.
 */
export async function loginCeremony(
  target: Target,
  authenticator: WebAuthnSoftwareAuthenticator,
  forUser?: { userId: string; apiKey: string },
): Promise<CeremonyTiming> {
  const base = `/passkey/${target.tenantId}/login`;
  const t0 = performance.now();
  const init = await expectOk(
    forUser
      ? target.client.request(
          "POST",
          `${base}/initialize`,
          { user_id: forUser.userId },
          { apiKey: forUser.apiKey },
        )
      : target.client.request("POST", `${base}/initialize`),
    "login/initialize",
  );
  const t1 = performance.now();
  const assertion = await authenticator.login(init.publicKey as AuthenticationOptionsLike, {
    origin: target.origin,
  });
  const t2 = performance.now();
  const result = await expectOk(
    target.client.request("POST", `${base}/finalize`, assertion),
    "login/finalize",
  );
  const t3 = performance.now();
  if (typeof result.token !== "string") throw new Error("login/finalize returned no token");
  return { initialize: t1 - t0, sign: t2 - t1, finalize: t3 - t2, total: t3 - t0 };
}

/**
 * One registration of a new user: initialize with the passkey API key (`userId` must be fresh) → a
 * new authenticator makes a credential → finalize (a token comes back).
 */
export async function registrationCeremony(
  target: Target,
  passkeyApiKey: string,
  userId: string,
): Promise<CeremonyTiming> {
  const base = `/passkey/${target.tenantId}/registration`;
  const authenticator = new WebAuthnSoftwareAuthenticator({ counterStep: 0 });
  const t0 = performance.now();
  const init = await expectOk(
    target.client.request(
      "POST",
      `${base}/initialize`,
      { user_id: userId, username: `${userId}@example.com` },
      { apiKey: passkeyApiKey },
    ),
    "registration/initialize",
  );
  const t1 = performance.now();
  const attestation = await authenticator.register(init.publicKey as RegistrationOptionsLike, {
    origin: target.origin,
    fmt: "none",
  });
  const t2 = performance.now();
  const result = await expectOk(
    target.client.request("POST", `${base}/finalize`, attestation),
    "registration/finalize",
  );
  const t3 = performance.now();
  if (typeof result.token !== "string") throw new Error("registration/finalize returned no token");
  return { initialize: t1 - t0, sign: t2 - t1, finalize: t3 - t2, total: t3 - t0 };
}

/** What one measurement window collected. */
export interface Window {
  startedAt: number;
  endedAt: number;
  timings: CeremonyTiming[];
  errors: number;
}

/** One login by one virtual client with its authenticator: the passkey API's by default. */
export type Ceremony = (
  target: Target,
  authenticator: WebAuthnSoftwareAuthenticator,
) => Promise<CeremonyTiming>;

export interface LoadPlan<R> {
  concurrency: number;
  /** The ceremony each virtual client repeats (default: `loginCeremony`, the Passkey API's). */
  ceremony?: Ceremony;
  warmupMs: number;
  windowMs: number;
  /** Windows to keep. */
  windows: number;
  /** Windows to run at most, when some are rejected. */
  maxWindows: number;
  /** Called right before a window opens (CPU samples, RSS peaks); the window opens once it resolves. */
  onWindowStart: () => void | Promise<void>;
  /** Called right after a window closes: its result, and whether to keep it. */
  onWindowEnd: (window: Window) => { result: R; keep: boolean } | Promise<{ result: R; keep: boolean }>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Closed loop: `concurrency` virtual clients, each with its own authenticator, run ceremonies back to
 * back through a warm-up and then consecutive windows until `windows` are kept (or `maxWindows` ran;
 * then the last ones are kept). A ceremony counts in the window in which it completes. Stops on the
 * first error after more than 1 % of ceremonies failed.
 */
export async function closedLoop<R>(
  target: Target,
  authenticators: WebAuthnSoftwareAuthenticator[],
  plan: LoadPlan<R>,
): Promise<{ kept: R[]; rejected: R[] }> {
  if (authenticators.length < plan.concurrency) throw new Error("fewer users than virtual clients");
  let stopped = false;
  let current: Window | undefined;
  let completed = 0;
  let failed = 0;
  let fatal: unknown;
  const ceremony = plan.ceremony ?? loginCeremony;

  const worker = async (authenticator: WebAuthnSoftwareAuthenticator) => {
    while (!stopped) {
      try {
        const timing = await ceremony(target, authenticator);
        completed++;
        current?.timings.push(timing);
      } catch (error) {
        failed++;
        if (current) current.errors++;
        if (failed > 10 && failed > completed / 100) {
          fatal ??= error;
          stopped = true;
        }
      }
    }
  };
  const workers = authenticators.slice(0, plan.concurrency).map(worker);

  const kept: R[] = [];
  const rejected: R[] = [];
  await sleep(plan.warmupMs);
  for (let run = 0; kept.length < plan.windows && !stopped; run++) {
    await plan.onWindowStart();
    const window: Window = { startedAt: performance.now(), endedAt: 0, timings: [], errors: 0 };
    current = window;
    await sleep(plan.windowMs);
    window.endedAt = performance.now();
    // Closed before the callback runs: ceremonies completing while it reads its samples do not count.
    current = undefined;
    const { result, keep } = await plan.onWindowEnd(window);
    const last = plan.maxWindows - run <= plan.windows - kept.length;
    (keep || last ? kept : rejected).push(result);
  }
  stopped = true;
  await Promise.all(workers);
  if (fatal) throw fatal;
  return { kept, rejected };
}
