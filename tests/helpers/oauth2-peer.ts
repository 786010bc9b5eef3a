import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** A GitHub account as /user and /user/emails show it. */
export interface GitHubAccount {
  id: number;
  login: string;
  name: string | null;
  /** The public profile address (often null on GitHub). */
  email: string | null;
  emails: { email: string; primary: boolean; verified: boolean }[];
}

export interface OAuth2Peer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  clientId: string;
  clientSecret: string;
  /** The endpoints as a provider's options name them. */
  endpoints: {
    authorizationEndpoint: string;
    tokenEndpoint: string;
    userinfoEndpoint: string;
    emailsEndpoint: string;
  };
  /** Who signs in next. */
  account: GitHubAccount;
  /** Set to answer the authorization with this `error` (e.g. `access_denied`: the user cancels). */
  refuseWith: string | undefined;
  authorizations: URLSearchParams[];
  tokenRequests: URLSearchParams[];
  close(): Promise<void>;
}

interface Grant {
  account: GitHubAccount;
  challenge: string | null;
  redirectUri: string;
}

const base64url = (bytes: Buffer) => bytes.toString("base64url");

/**
 * A small GitHub-shaped OAuth 2.0 server on node:http: `/login/oauth/authorize` signs `account` in at once
 * (no UI) and redirects back with a code; `/login/oauth/access_token` checks the client, the single-use
 * code, the redirect URI and the PKCE verifier (S256) and answers a bearer token; `/user` and
 * `/user/emails` answer for that token.
 */
export async function startOAuth2Peer(
  options: { clientId?: string; clientSecret?: string; account?: GitHubAccount } = {},
): Promise<OAuth2Peer> {
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, GitHubAccount>();
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const peer: OAuth2Peer = {
    origin,
    clientId: options.clientId ?? "github-client",
    clientSecret: options.clientSecret ?? "github-client-secret-0123456789",
    endpoints: {
      authorizationEndpoint: `${origin}/login/oauth/authorize`,
      tokenEndpoint: `${origin}/login/oauth/access_token`,
      userinfoEndpoint: `${origin}/user`,
      emailsEndpoint: `${origin}/user/emails`,
    },
    account: options.account ?? {
      id: 4242,
      login: "octo",
      name: "Octo Cat",
      email: null,
      emails: [{ email: "octo@example.com", primary: true, verified: true }],
    },
    refuseWith: undefined,
    authorizations: [],
    tokenRequests: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };

  const readForm = (req: http.IncomingMessage) =>
    new Promise<URLSearchParams>((resolve) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => resolve(new URLSearchParams(Buffer.concat(chunks).toString())));
    });

  const bearer = (req: http.IncomingMessage) => {
    const match = /^(?:bearer|token) (.+)$/i.exec(req.headers.authorization ?? "");
    return match ? tokens.get(match[1]!) : undefined;
  };

  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? "/", origin);
      if (req.method === "GET" && url.pathname === "/login/oauth/authorize") {
        const query = url.searchParams;
        peer.authorizations.push(query);
        const redirectUri = query.get("redirect_uri") ?? "";
        if (query.get("client_id") !== peer.clientId || !redirectUri)
          return send(res, 400, { error: "bad client" });
        const back = new URL(redirectUri);
        if (query.get("state")) back.searchParams.set("state", query.get("state")!);
        if (peer.refuseWith) {
          back.searchParams.set("error", peer.refuseWith);
          back.searchParams.set("error_description", "The user has denied your application access.");
        } else {
          const code = base64url(randomBytes(16));
          const method = query.get("code_challenge_method");
          codes.set(code, {
            account: peer.account,
            challenge: method === "S256" ? query.get("code_challenge") : null,
            redirectUri,
          });
          back.searchParams.set("code", code);
        }
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (req.method === "POST" && url.pathname === "/login/oauth/access_token") {
        const form = await readForm(req);
        peer.tokenRequests.push(form);
        if (form.get("client_id") !== peer.clientId || form.get("client_secret") !== peer.clientSecret) {
          return send(res, 401, { error: "invalid_client" });
        }
        const grant = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        if (!grant || grant.redirectUri !== form.get("redirect_uri"))
          return send(res, 400, { error: "invalid_grant" });
        const verifier = form.get("code_verifier") ?? "";
        const computed = base64url(createHash("sha256").update(verifier).digest());
        if (!grant.challenge || computed !== grant.challenge) {
          return send(res, 400, { error: "invalid_grant", error_description: "PKCE verification failed" });
        }
        const accessToken = `gho_${base64url(randomBytes(24))}`;
        tokens.set(accessToken, grant.account);
        return send(res, 200, {
          access_token: accessToken,
          token_type: "bearer",
          scope: "read:user,user:email",
        });
      }
      if (req.method === "GET" && (url.pathname === "/user" || url.pathname === "/user/emails")) {
        const account = bearer(req);
        if (!account) return send(res, 401, { message: "Bad credentials" });
        if (url.pathname === "/user") {
          return send(res, 200, {
            id: account.id,
            login: account.login,
            name: account.name,
            email: account.email,
          });
        }
        return send(
          res,
          200,
          account.emails.map((entry) => ({ ...entry, visibility: entry.primary ? "private" : null })),
        );
      }
      send(res, 404, { message: "Not Found" });
    })().catch((error: unknown) => send(res, 500, { message: String(error) }));
  });
  return peer;
}
