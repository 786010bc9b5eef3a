/**
 * The benchmark's "domain" server: the Passkey API's registration and login endpoints on bare `node:http`,
 * calling the same domain functions as the Next.js route handlers (same statements, same crypto),
 * with a minimal JSON body reader and no framework. Configured by the same environment as Sesame
 * (PORT, DATABASE_URL or SESAME_DATA_DIR, SESAME_MASTER_SECRET, LOG_LEVEL).
 *
 *   node --import tsx bench/domain-server.ts
 */
import http from "node:http";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { authenticateApiKey } from "@/lib/api-keys";
import type { AuditContext } from "@/lib/audit";
import {
  finalizeLogin,
  finalizeRegistration,
  initializeLogin,
  initializeRegistration,
} from "@/lib/ceremonies/webauthn";
import { getConfig } from "@/lib/config";
import { getMasterSecret } from "@/lib/crypto";
import { getDatabase } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { PASSKEY_ERRORS } from "@/lib/http/presenters/passkey";
import { getTenant } from "@/lib/tenants";
import { HttpError, readJson, send } from "./lib/bare-http";

const AUDIT: AuditContext = { actor: null, ip: null, userAgent: null, requestId: null };
const PATH = /^\/passkey\/([^/]+)\/(login|registration)\/(initialize|finalize)$/;

async function handle(req: http.IncomingMessage): Promise<unknown> {
  const match = PATH.exec(req.url ?? "");
  if (req.method !== "POST" || !match) throw new HttpError(404, "not found");
  const [, tenantId = "", ceremony, step] = match;
  const body = await readJson(req);
  const tenant = await getTenant(tenantId);
  const checkApiKey = () =>
    authenticateApiKey(typeof req.headers.apikey === "string" ? req.headers.apikey : undefined, {
      scope: "passkey",
      tenantId: tenant.id,
    });
  if (ceremony === "login") {
    if (step === "initialize") {
      // With a user_id the relying party's backend asks, with the passkey API key (as the route does).
      const { user_id: userId } = body as { user_id?: string };
      if (userId !== undefined) await checkApiKey();
      return { publicKey: await initializeLogin(tenant, "login", { userId }, AUDIT) };
    }
    return finalizeLogin(tenant, "login", body as AuthenticationResponseJSON, AUDIT);
  }
  if (step === "initialize") {
    await checkApiKey();
    const { user_id: userId, username } = body as { user_id: string; username: string };
    return { publicKey: await initializeRegistration(tenant, "registration", { userId, username }, AUDIT) };
  }
  return finalizeRegistration(tenant, "registration", body as RegistrationResponseJSON, AUDIT);
}

async function main(): Promise<void> {
  const config = getConfig();
  await getDatabase();
  getMasterSecret();
  const server = http.createServer((req, res) => {
    if (req.method === "GET" && req.url === "/readyz") return send(res, 200, { status: "ok" });
    handle(req).then(
      (body) => send(res, 200, body),
      (error: unknown) => {
        if (error instanceof AppError || error instanceof HttpError) {
          const status = error instanceof AppError ? PASSKEY_ERRORS[error.code].status : error.status;
          send(res, status, { title: [error.message], status });
        } else {
          process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
          send(res, 500, { title: ["internal error"], status: 500 });
        }
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  server.listen(config.port, () => process.stderr.write(`floor server on port ${config.port}\n`));
  const shutdown = () => server.close(() => process.exit(0));
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
