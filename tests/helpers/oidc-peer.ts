import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, decodeJwt, type JWK, type JWTPayload } from "jose";
import Provider, { type Configuration } from "oidc-provider";

/** The account the peer signs in, without any UI (the interaction completes itself). */
export interface PeerAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

/** Rewrites the ID token the token endpoint answers (claims in, a compact JWS out). */
export type IdTokenTamper = (
  claims: JWTPayload,
  sign: (claims: JWTPayload, options?: { otherKey?: boolean; kid?: string }) => Promise<string>,
) => Promise<string>;

export interface OidcPeer {
  /** `http://127.0.0.1:<port>`: what a provider's `issuer` option names. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who signs in next (change it between sign-ins). */
  account: PeerAccount;
  /** Set to make the user decline at the provider (`error=access_denied`), or another error code. */
  refuseWith: string | undefined;
  /** Set to rewrite the next ID tokens (wrong audience, expired, other key, nonce…). */
  tamperIdToken: IdTokenTamper | undefined;
  /** The query of every authorization request, in order (PKCE challenge, nonce, state, scope). */
  authorizations: URLSearchParams[];
  /** The form of every token request (the PKCE verifier the client sent). */
  tokenRequests: URLSearchParams[];
  /** How many times the discovery document was fetched. */
  discoveries: number;
  /** How many times the JWKS was fetched. */
  jwksRequests: number;
  /**
   * Publishes a new signing key under `kid` (beside the old one) from now on; `sign(claims, { kid })` in
   * `tamperIdToken` signs with it. Without `publish`, the key signs but the JWKS does not show it.
   */
  addKey(kid: string, options?: { publish?: boolean }): Promise<void>;
  close(): Promise<void>;
}

/** Redirect URLs the peer's client accepts: any tenant's Sesame callback, on any origin (tests and e2e). */
const SESAME_CALLBACK = /^https?:\/\/[^/]+\/t\/[^/]+\/thirdparty\/callback$/;

/**
 * panva's `oidc-provider` on a loopback port as an OpenID Connect identity provider: one confidential
 * client (client_secret_post), PKCE required, RS256 ID tokens carrying the email claims, and an interaction
 * endpoint that signs `account` in and consents at once, so a test (or Chromium) only follows redirects.
 */
export async function startOidcPeer(
  options: { clientId?: string; clientSecret?: string; account?: PeerAccount } = {},
): Promise<OidcPeer> {
  const clientId = options.clientId ?? "sesame-client";
  const clientSecret = options.clientSecret ?? "sesame-client-secret-0123456789";
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingJwk: JWK = { ...(await exportJWK(privateKey)), kid: "peer-key", alg: "RS256", use: "sig" };
  const other = await generateKeyPair("RS256", { extractable: true });
  // Keys added by addKey: what signs, and the public keys the JWKS shows beside oidc-provider's own.
  const extraKeys = new Map<string, CryptoKey>();
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...signingPublic } = signingJwk;
  const published: JWK[] = [signingPublic];

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const peer: OidcPeer = {
    issuer,
    clientId,
    clientSecret,
    account: options.account ?? {
      sub: "peer-user-1",
      email: "peer.user@example.com",
      email_verified: true,
      name: "Peer User",
    },
    refuseWith: undefined,
    tamperIdToken: undefined,
    authorizations: [],
    tokenRequests: [],
    discoveries: 0,
    jwksRequests: 0,
    addKey: async (kid, addOptions = {}) => {
      const pair = await generateKeyPair("RS256", { extractable: true });
      extraKeys.set(kid, pair.privateKey);
      if (addOptions.publish !== false) {
        published.push({ ...(await exportJWK(pair.publicKey)), kid, alg: "RS256", use: "sig" });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: ["http://localhost/t/placeholder/thirdparty/callback"],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [signingJwk] },
    cookies: { keys: ["oidc-peer-cookie-key-0123456789"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    ttl: {
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AccessToken: 600,
      IdToken: 600,
      AuthorizationCode: 60,
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ ...peer.account, sub: id }),
    }),
  };
  const provider = new Provider(issuer, configuration);
  // Every Sesame tenant has its own callback URL: the test client accepts any of them.
  const allowed = provider.Client.prototype.redirectUriAllowed;
  provider.Client.prototype.redirectUriAllowed = function (value: string) {
    return SESAME_CALLBACK.test(value) || allowed.call(this, value);
  };
  const callback = provider.callback();

  const sign = async (claims: JWTPayload, signOptions: { otherKey?: boolean; kid?: string } = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", kid: signOptions.kid ?? "peer-key" })
      .sign(
        signOptions.kid
          ? extraKeys.get(signOptions.kid)!
          : signOptions.otherKey
            ? other.privateKey
            : privateKey,
      );

  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? "/", issuer);
      if (url.pathname.startsWith("/interaction/")) {
        const details = await provider.interactionDetails(req, res);
        if (peer.refuseWith) {
          await provider.interactionFinished(
            req,
            res,
            { error: peer.refuseWith, error_description: "the user declined" },
            { mergeWithLastSubmission: false },
          );
          return;
        }
        if (details.prompt.name === "login") {
          await provider.interactionFinished(req, res, { login: { accountId: peer.account.sub } });
          return;
        }
        const grant = new provider.Grant({
          accountId: details.session!.accountId!,
          clientId: String(details.params.client_id),
        });
        grant.addOIDCScope(String(details.params.scope));
        await provider.interactionFinished(
          req,
          res,
          { consent: { grantId: await grant.save() } },
          {
            mergeWithLastSubmission: true,
          },
        );
        return;
      }
      if (url.pathname === "/auth") peer.authorizations.push(url.searchParams);
      if (url.pathname === "/.well-known/openid-configuration") peer.discoveries += 1;
      if (url.pathname === "/jwks") {
        peer.jwksRequests += 1;
        if (published.length > 1) {
          res.setHeader("content-type", "application/jwk-set+json");
          res.end(JSON.stringify({ keys: published }));
          return;
        }
      }
      if (url.pathname === "/token" && req.method === "POST") {
        interceptToken(req, res);
      }
      callback(req, res);
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });

  /** Records the token request's form, and rewrites the answer's ID token when asked. */
  function interceptToken(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => peer.tokenRequests.push(new URLSearchParams(Buffer.concat(chunks).toString())));
    const tamper = peer.tamperIdToken;
    if (!tamper) return;
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    const body: Buffer[] = [];
    res.write = ((chunk: Buffer | string) => {
      body.push(Buffer.from(chunk));
      return true;
    }) as typeof res.write;
    res.end = ((chunk?: Buffer | string | (() => void)) => {
      if (chunk && typeof chunk !== "function") body.push(Buffer.from(chunk));
      void (async () => {
        let text = Buffer.concat(body).toString();
        try {
          const answer = JSON.parse(text) as { id_token?: string };
          if (answer.id_token) {
            answer.id_token = await tamper(decodeJwt(answer.id_token), sign);
            text = JSON.stringify(answer);
          }
        } catch {
          // Not JSON: pass it on unchanged.
        }
        res.removeHeader("content-length");
        res.setHeader("content-length", Buffer.byteLength(text));
        write(text);
        end();
      })();
      return res;
    }) as typeof res.end;
  }

  return peer;
}

/** A cookie jar for one origin (the peer's cookies, names only: the peer is one host). */
export class CookieJar {
  private cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const index = pair!.indexOf("=");
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/**
 * Follows the peer's redirects from an authorization URL (as a browser would, with the peer's cookies) until
 * the peer sends the browser back to Sesame; answers that URL (the callback with code and state, or error).
 */
export async function followPeer(authorizationUrl: string, jar = new CookieJar()): Promise<URL> {
  let next = new URL(authorizationUrl);
  const peerOrigin = next.origin;
  for (let hop = 0; hop < 20; hop++) {
    if (next.origin !== peerOrigin) return next;
    const response = await fetch(next, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.store(response);
    const location = response.headers.get("location");
    if (!location) {
      throw new Error(`the peer answered ${response.status} without a redirect: ${await response.text()}`);
    }
    await response.body?.cancel();
    next = new URL(location, next);
  }
  throw new Error("too many redirects at the peer");
}
