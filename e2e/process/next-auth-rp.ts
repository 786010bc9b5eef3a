import http from "node:http";
import type { AddressInfo } from "node:net";
import nextAuthModule, { type AuthOptions } from "next-auth";

/** next-auth is CommonJS: under Playwright's loader its handler is the default import's own `default`. */
const NextAuth = ((nextAuthModule as { default?: unknown }).default ??
  nextAuthModule) as typeof nextAuthModule;

/**
 * A small next-auth 4 app with Sesame as its OpenID provider: next-auth's own pages-router API handler
 * (`NextAuth(req, res, options)`, unmodified) served by node:http on loopback, as `pages/api/auth/[...nextauth].ts`
 * would be under Next. The provider settings are the ones docs/openid-provider.md gives for next-auth 4.
 * "/" answers who is signed in, from next-auth's own session (`/api/auth/session`).
 */
export interface NextAuthApp {
  url: string;
  close(): Promise<void>;
}

type ApiRequest = http.IncomingMessage & {
  query: Record<string, string | string[]>;
  cookies: Record<string, string>;
  body: Record<string, string> | undefined;
};
type ApiResponse = http.ServerResponse & {
  status(code: number): ApiResponse;
  json(body: unknown): void;
  send(body: unknown): void;
};

function cookiesOf(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0) cookies[part.slice(0, at).trim()] = decodeURIComponent(part.slice(at + 1).trim());
  }
  return cookies;
}

/** The request and response as Next's API routes give them to a handler. */
function asApiRoute(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
  const url = new URL(req.url ?? "/", "http://rp.invalid");
  const api = req as ApiRequest;
  api.query = {
    ...Object.fromEntries(url.searchParams),
    nextauth: url.pathname
      .replace(/^\/api\/auth\/?/, "")
      .split("/")
      .filter(Boolean),
  };
  api.cookies = cookiesOf(req.headers.cookie);
  const type = req.headers["content-type"] ?? "";
  api.body = type.includes("application/json")
    ? (JSON.parse(raw || "{}") as Record<string, string>)
    : type.includes("application/x-www-form-urlencoded")
      ? Object.fromEntries(new URLSearchParams(raw))
      : undefined;
  const out = res as ApiResponse;
  out.status = (code) => {
    out.statusCode = code;
    return out;
  };
  out.json = (body) => {
    out.setHeader("content-type", "application/json");
    out.end(JSON.stringify(body));
  };
  out.send = (body) => {
    if (typeof body === "string") {
      if (!out.hasHeader("content-type")) out.setHeader("content-type", "text/html; charset=utf-8");
      out.end(body);
    } else out.json(body ?? null);
  };
  return { api, out };
}

/** `client`: the app's registration at Sesame, asked for per request (it is registered once the port is known). */
export async function startNextAuthApp(settings: {
  issuer: string;
  client: () => { client_id: string; client_secret: string };
}): Promise<NextAuthApp> {
  const options = (): AuthOptions => ({
    secret: "next-auth-e2e-secret-0123456789abcdef",
    providers: [
      {
        id: "sesame",
        name: "Sesame",
        type: "oauth",
        wellKnown: `${settings.issuer}/.well-known/openid-configuration`,
        clientId: settings.client().client_id,
        clientSecret: settings.client().client_secret,
        authorization: { params: { scope: "openid email profile" } },
        idToken: true,
        checks: ["pkce", "state"],
        profile: (profile: { sub: string; email?: string; name?: string }) => ({
          id: profile.sub,
          email: profile.email ?? null,
          name: profile.name ?? null,
        }),
      },
    ],
  });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://rp.invalid").pathname;
      if (!path.startsWith("/api/auth")) {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<h1>next-auth app</h1>");
        return;
      }
      const { api, out } = asApiRoute(req, res, Buffer.concat(chunks).toString("utf8"));
      const fail = (error: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(error));
      };
      try {
        Promise.resolve(NextAuth(api as never, out as never, options())).catch(fail);
      } catch (error) {
        fail(error);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // next-auth 4 takes its own URL from the environment (one app per test process).
  process.env.NEXTAUTH_URL = url;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
