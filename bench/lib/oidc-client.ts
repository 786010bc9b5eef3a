import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { CeremonyTiming } from "./client";
import { type BenchHttp, expectStatus } from "./ceremony-bench";

/**
 * The `oidc-login` scenario: a relying party's whole authorization-code login with PKCE for a user
 * already signed in to Sesame (issue 30's benchmark): the authorization request with the Sesame session
 * cookie → a code at the redirect URI; the token request (client_secret_basic, the code verifier) → ID,
 * access tokens; UserInfo with the access token. Three requests, as openid-client sends them.
 */
export const OIDC_STEPS = {
  authorize: "GET /t/{tenant}/oauth/authorize (code, S256, state, nonce; Sesame session cookie) → 303 code",
  token: "POST /t/{tenant}/oauth/token (authorization_code, client_secret_basic, code_verifier) → tokens",
  userinfo: "GET /t/{tenant}/oauth/userinfo (Bearer access token) → claims",
};

/** The tenant default cookie name (the benchmark does not change it). */
const COOKIE_NAME = "hanko";
const REDIRECT_URI = "http://localhost:9/callback";

export interface OidcBench {
  tenantId: string;
  clientId: string;
  secret: string;
  /** One Sesame session token per virtual user. */
  sessions: string[];
}

/**
 * A first-party confidential client (`POST /admin/oauth/clients`) and `users` platform users, each with
 * a session (`POST /admin/users`, `POST /admin/sessions`).
 */
export async function prepareOidcLogins(
  client: BenchHttp,
  tenantId: string,
  adminApiKey: string,
  users: number,
): Promise<OidcBench> {
  const t = `/t/${tenantId}`;
  const admin = { authorization: `Bearer ${adminApiKey}` };
  const created = await expectStatus(
    client.request(
      "POST",
      `${t}/admin/oauth/clients`,
      {
        client_name: "Bench RP",
        redirect_uris: [REDIRECT_URI],
        grant_types: ["authorization_code"],
        first_party: true,
      },
      admin,
    ),
    201,
    "admin/oauth/clients",
  );
  const sessions: string[] = [];
  for (let i = 0; i < users; i++) {
    const emails = [{ address: `bench-oidc-${i}@example.com`, is_primary: true, is_verified: true }];
    const user = await expectStatus(
      client.request("POST", `${t}/admin/users`, { emails }, admin),
      200,
      "admin/users",
    );
    const { session_token: token } = await expectStatus(
      client.request("POST", `${t}/admin/sessions`, { user_id: String(user.id) }, admin),
      200,
      "admin/sessions",
    );
    if (typeof token !== "string") throw new Error("admin/sessions returned no session_token");
    sessions.push(token);
  }
  return { tenantId, clientId: String(created.client_id), secret: String(created.client_secret), sessions };
}

const agents = new Map<number, http.Agent>();

/** One request with a raw body (forms), keep-alive per port; the status, headers and body text. */
function send(
  port: number,
  method: string,
  requestPath: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  let agent = agents.get(port);
  if (!agent) agents.set(port, (agent = new http.Agent({ keepAlive: true, maxSockets: 256 })));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path: requestPath,
        agent,
        headers: { ...headers, "content-length": body ? Buffer.byteLength(body) : 0 },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const b64url = (bytes: Buffer) => bytes.toString("base64url");

/** One authorization-code login of the `index`-th user (see {@link OIDC_STEPS}). */
export async function oidcLogin(port: number, bench: OidcBench, index: number): Promise<CeremonyTiming> {
  const t = `/t/${bench.tenantId}/oauth`;
  const verifier = b64url(randomBytes(32));
  const state = b64url(randomBytes(16));
  const query = new URLSearchParams({
    client_id: bench.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope: "openid email",
    state,
    nonce: b64url(randomBytes(16)),
    code_challenge: b64url(createHash("sha256").update(verifier).digest()),
    code_challenge_method: "S256",
  });
  const t0 = performance.now();
  const authorized = await send(port, "GET", `${t}/authorize?${query}`, {
    cookie: `${COOKIE_NAME}=${bench.sessions[index % bench.sessions.length]}`,
  });
  const location = authorized.headers.location ?? "";
  const code = location.startsWith(REDIRECT_URI) ? new URL(location).searchParams.get("code") : null;
  if (!code || new URL(location).searchParams.get("state") !== state)
    throw new Error(`authorize: ${authorized.status} ${location || authorized.text.slice(0, 200)}`);
  const t1 = performance.now();
  const basic = Buffer.from(`${encodeURIComponent(bench.clientId)}:${encodeURIComponent(bench.secret)}`);
  const token = await send(
    port,
    "POST",
    `${t}/token`,
    {
      authorization: `Basic ${basic.toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    }).toString(),
  );
  const tokens =
    token.status === 200 ? (JSON.parse(token.text) as { access_token?: string; id_token?: string }) : {};
  if (!tokens.access_token || !tokens.id_token)
    throw new Error(`token: ${token.status} ${token.text.slice(0, 200)}`);
  const info = await send(port, "GET", `${t}/userinfo`, { authorization: `Bearer ${tokens.access_token}` });
  if (info.status !== 200) throw new Error(`userinfo: ${info.status} ${info.text.slice(0, 200)}`);
  const t2 = performance.now();
  return { initialize: t1 - t0, sign: 0, finalize: t2 - t1, total: t2 - t0 };
}
