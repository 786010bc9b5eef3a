import "server-only";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import type { AuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { deriveKey } from "@/lib/crypto";
import { requestContext } from "@/lib/request/context";
import {
  CONSOLE_SESSION_ABSOLUTE_SECONDS,
  consoleUrl,
  finishSignIn,
  revokeOperatorSession,
} from "@/lib/operators";

/** Where next-auth's routes live: app/(console)/console/api/auth/[...nextauth]. */
export const CONSOLE_AUTH_PATH = "/console/api/auth";

declare module "next-auth" {
  interface Session {
    /** The operator_sessions row (lib/operators/sessions.ts) this cookie stands for. */
    sid?: string;
  }
  interface User {
    sid?: string;
  }
}
declare module "next-auth/jwt" {
  interface JWT {
    sid?: string;
  }
}

/**
 * next-auth 4 for the console: one Credentials provider, `passkey`, whose `authorize` verifies an
 * operator's WebAuthn assertion with Sesame's own ceremony code (lib/operators) and opens a row in
 * operator_sessions. The JWT cookie only names that row: revocation, the 30-minute idle and the
 * 12-hour absolute lifetime are decided in the database on every request (lib/console/guard.ts).
 */
export function consoleAuthOptions(): AuthOptions {
  // next-auth 4 reads its base path and origin from NEXTAUTH_URL.
  process.env.NEXTAUTH_URL = consoleUrl("/api/auth");
  const secure = new URL(consoleUrl()).protocol === "https:";
  return {
    secret: deriveKey("console-auth", "next-auth").toString("base64url"),
    useSecureCookies: secure,
    session: { strategy: "jwt", maxAge: CONSOLE_SESSION_ABSOLUTE_SECONDS },
    cookies: consoleCookies(secure),
    pages: { signIn: "/console/sign-in", error: "/console/sign-in" },
    providers: [
      CredentialsProvider({
        id: "passkey",
        name: "Passkey",
        credentials: { response: { label: "WebAuthn assertion (JSON)", type: "text" } },
        async authorize(credentials, req) {
          let response: AuthenticationResponseJSON;
          try {
            response = JSON.parse(credentials?.response ?? "") as AuthenticationResponseJSON;
          } catch {
            return null;
          }
          if (typeof response !== "object" || response === null) return null;
          const context = requestContext({ headers: new Headers(plainHeaders(req.headers)) });
          try {
            const { operator, sessionId } = await finishSignIn(response, context);
            return { id: operator.id, email: operator.email, sid: sessionId };
          } catch {
            return null;
          }
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user?.sid) token.sid = user.sid;
        return token;
      },
      session({ session, token }) {
        return { ...session, sid: token.sid };
      },
    },
    events: {
      async signOut({ token }) {
        if (token?.sid) await revokeOperatorSession(token.sid);
      },
    },
  };
}

/**
 * The console's cookies are its own: own names, and paths under /console, so a browser never sends them
 * to the public surfaces (with SESAME_ADMIN_PORT the public port shares the host, and cookies ignore
 * ports). `__Secure-` on https (`__Host-` would force `Path=/`).
 */
function consoleCookies(secure: boolean): AuthOptions["cookies"] {
  const prefix = secure ? "__Secure-" : "";
  const options = (path: string) => ({ httpOnly: true, sameSite: "lax" as const, path, secure });
  return {
    sessionToken: { name: `${prefix}sesame-console.session`, options: options("/console") },
    callbackUrl: { name: `${prefix}sesame-console.callback-url`, options: options("/console") },
    csrfToken: { name: `${prefix}sesame-console.csrf`, options: options(CONSOLE_AUTH_PATH) },
  };
}

function plainHeaders(headers: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (typeof value === "string") out[name] = value;
  }
  return out;
}
