/**
 * The benchmark's independent floor: the minimal work of the Passkey API's registration and login
 * ceremonies on bare `node:http`, with hand-written SQL and no Sesame module (only node,
 * @simplewebauthn/server, jose, postgres, @electric-sql/pglite and the benchmark's own
 * bench/lib/bare-http.ts). It answers on the same paths with the same bodies as Sesame, so
 * bench/lib/client.ts drives it unchanged. It is not a product: one
 * tenant from the environment, minimal checks and 4xx JSON errors.
 *
 * Per ceremony (statements on the database):
 * - login initialize, discoverable: INSERT of the challenge.
 * - login initialize with `user_id` and the `apikey` header: SELECT of the API key by prefix (then a
 *   constant-time compare of its SHA-256), SELECT of the user's credential ids, INSERT of the challenge.
 * - login finalize: DELETE … RETURNING of the challenge, SELECT of the credential with its user's
 *   external id, the signature check, an RS256 JWT, then in one transaction UPDATE of the sign count
 *   (compare-and-set), INSERT of a session and INSERT of an audit row.
 * - registration initialize: the API key check, INSERT of the challenge.
 * - registration finalize: DELETE … RETURNING of the challenge, the attestation check, then in one
 *   transaction the user's upsert, INSERT of the credential and of an audit row.
 *
 * Environment (as Sesame where it makes sense): PORT, DATABASE_URL (Postgres) or SESAME_DATA_DIR
 * (PGlite in `<dir>/floor-pglite`), FLOOR_TENANT_ID (a UUID), FLOOR_API_KEY (≥ 32 characters; its
 * first 12 are the prefix it is found by), FLOOR_RP_ID (default localhost), FLOOR_ORIGIN (default
 * http://localhost:<PORT>).
 *
 *   node --import tsx bench/independent-floor.ts
 */
import { createHash, generateKeyPairSync, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { importPKCS8, SignJWT, type CryptoKey } from "jose";
import postgres from "postgres";
import { HttpError, readJson, send } from "./lib/bare-http";

const CHALLENGE_TTL_SECONDS = 300;
const TOKEN_LIFETIME_SECONDS = 300;
const KEY_PREFIX_LENGTH = 12;
const PATH = /^\/passkey\/([^/]+)\/(login|registration)\/(initialize|finalize)$/;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS challenges (
  challenge text PRIMARY KEY,
  tenant_id uuid NOT NULL,
  kind text NOT NULL,
  user_id uuid,
  external_id text,
  username text,
  expires_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL,
  external_id text NOT NULL,
  username text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, external_id)
);
CREATE TABLE IF NOT EXISTS credentials (
  tenant_id uuid NOT NULL,
  id text NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id),
  public_key bytea NOT NULL,
  sign_count bigint NOT NULL,
  backup_eligible boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX IF NOT EXISTS credentials_user ON credentials (tenant_id, user_id);
CREATE TABLE IF NOT EXISTS sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL,
  user_id uuid NOT NULL,
  credential_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id uuid NOT NULL,
  type text NOT NULL,
  actor text,
  details jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS api_keys (
  prefix text PRIMARY KEY,
  tenant_id uuid NOT NULL,
  secret_hash bytea NOT NULL
);
`;

// ---- the database: postgres.js (prepared statements, its default) or PGlite, behind one interface ----

type Row = Record<string, unknown>;
interface Queries {
  query<T extends Row>(text: string, params: unknown[]): Promise<T[]>;
}
interface Store extends Queries {
  transaction<T>(work: (tx: Queries) => Promise<T>): Promise<T>;
  exec(text: string): Promise<void>;
}

type SqlParams = Parameters<postgres.Sql["unsafe"]>[1];

function postgresStore(url: string): Store {
  const sql = postgres(url, { max: 10, onnotice: () => {} });
  const on = (s: postgres.Sql | postgres.TransactionSql): Queries => ({
    query: async <T extends Row>(text: string, params: unknown[]) =>
      (await s.unsafe(text, params as SqlParams, { prepare: true })) as unknown as T[],
  });
  return {
    ...on(sql),
    transaction: (work) => sql.begin((tx) => work(on(tx))) as Promise<never>,
    exec: async (text) => {
      await sql.unsafe(text);
    },
  };
}

async function pgliteStore(dir: string): Promise<Store> {
  fs.mkdirSync(dir, { recursive: true });
  const db = await PGlite.create(dir);
  const on = (s: Pick<PGlite, "query">): Queries => ({
    query: async <T extends Row>(text: string, params: unknown[]) => (await s.query<T>(text, params)).rows,
  });
  return {
    ...on(db),
    transaction: (work) => db.transaction((tx) => work(on(tx))),
    exec: async (text) => {
      await db.exec(text);
    },
  };
}

// ---- configuration ----

function env(name: string, fallback?: string): string {
  const value = process.env[name] || fallback;
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const port = Number(env("PORT", "3000"));
const tenantId = env("FLOOR_TENANT_ID").toLowerCase();
const apiKey = env("FLOOR_API_KEY");
const rpId = env("FLOOR_RP_ID", "localhost");
const origin = env("FLOOR_ORIGIN", `http://localhost:${port}`);
const issuer = `${origin}/passkey/${tenantId}`;
if (apiKey.length < 32) throw new Error("FLOOR_API_KEY must have at least 32 characters");

const sha256 = (text: string) => createHash("sha256").update(text).digest();

// ---- ceremonies ----

let store: Store;
/** Imported once at start and held in memory: every token is signed with it. */
let signingKey: CryptoKey;
const KID = "floor-1";

function signToken(subject: string, credentialId: string): Promise<string> {
  return new SignJWT({ cred: credentialId })
    .setProtectedHeader({ alg: "RS256", kid: KID, typ: "JWT" })
    .setSubject(subject)
    .setAudience([rpId])
    .setIssuer(issuer)
    .setIssuedAt()
    .setExpirationTime(`${TOKEN_LIFETIME_SECONDS}s`)
    .sign(signingKey);
}

/** One SELECT by the key's prefix, then a constant-time compare of the SHA-256 of the whole key. */
async function checkApiKey(presented: string | string[] | undefined): Promise<void> {
  if (typeof presented !== "string" || presented.length < 32 || presented.length > 128) {
    throw new HttpError(401, "unauthorized");
  }
  const [row] = await store.query<{ secret_hash: Uint8Array }>(
    "SELECT secret_hash FROM api_keys WHERE prefix = $1 AND tenant_id = $2",
    [presented.slice(0, KEY_PREFIX_LENGTH), tenantId],
  );
  if (!row || !timingSafeEqual(Buffer.from(row.secret_hash), sha256(presented))) {
    throw new HttpError(401, "unauthorized");
  }
}

const INSERT_CHALLENGE =
  "INSERT INTO challenges (challenge, tenant_id, kind, user_id, external_id, username, expires_at) " +
  `VALUES ($1, $2, $3, $4, $5, $6, now() + interval '${CHALLENGE_TTL_SECONDS} seconds')`;

const CONSUME_CHALLENGE =
  "DELETE FROM challenges WHERE challenge = $1 AND tenant_id = $2 AND kind = $3 " +
  "RETURNING user_id, external_id, username, expires_at <= now() AS expired";

interface ConsumedChallenge extends Row {
  user_id: string | null;
  external_id: string | null;
  username: string | null;
  expired: boolean;
}

function challengeOf(clientDataJSON: unknown): string {
  try {
    const data = JSON.parse(Buffer.from(String(clientDataJSON), "base64url").toString("utf8")) as {
      challenge?: unknown;
    };
    if (typeof data.challenge === "string") return data.challenge;
  } catch {
    // falls through to the 400
  }
  throw new HttpError(400, "unable to parse clientDataJSON");
}

async function consume(kind: string, clientDataJSON: unknown): Promise<ConsumedChallenge> {
  const [row] = await store.query<ConsumedChallenge>(CONSUME_CHALLENGE, [
    challengeOf(clientDataJSON),
    tenantId,
    kind,
  ]);
  if (!row) throw new HttpError(400, "received challenge does not match with any stored one");
  if (row.expired) throw new HttpError(400, "Session has Expired");
  return row;
}

async function loginInitialize(body: Row, key: string | string[] | undefined): Promise<unknown> {
  let userId: string | null = null;
  let allowed: string[] | null = null;
  if (body.user_id !== undefined) {
    await checkApiKey(key);
    const rows = await store.query<{ user_id: string; id: string }>(
      "SELECT u.id AS user_id, c.id FROM users u JOIN credentials c " +
        "ON c.tenant_id = u.tenant_id AND c.user_id = u.id WHERE u.tenant_id = $1 AND u.external_id = $2",
      [tenantId, String(body.user_id)],
    );
    if (rows.length === 0) throw new HttpError(404, "user not found");
    userId = rows[0]!.user_id;
    allowed = rows.map((row) => row.id);
  }
  const options = await generateAuthenticationOptions({
    rpID: rpId,
    timeout: CHALLENGE_TTL_SECONDS * 1000,
    userVerification: "required",
    ...(allowed ? { allowCredentials: allowed.map((id) => ({ id })) } : {}),
  });
  await store.query(INSERT_CHALLENGE, [options.challenge, tenantId, "login", userId, null, null]);
  return { publicKey: options };
}

interface CredentialRow extends Row {
  public_key: Uint8Array;
  sign_count: string | number;
  user_id: string;
  backup_eligible: boolean;
  external_id: string;
}

async function loginFinalize(body: Row): Promise<unknown> {
  const response = body as unknown as AuthenticationResponseJSON;
  const ceremony = await consume("login", response.response?.clientDataJSON);
  const [credential] = await store.query<CredentialRow>(
    "SELECT c.public_key, c.sign_count, c.user_id, c.backup_eligible, u.external_id " +
      "FROM credentials c JOIN users u ON u.id = c.user_id WHERE c.tenant_id = $1 AND c.id = $2",
    [tenantId, String(response.rawId)],
  );
  if (!credential) throw new HttpError(401, "failed to validate assertion");
  if (ceremony.user_id !== null && ceremony.user_id !== credential.user_id) {
    throw new HttpError(401, "failed to validate assertion");
  }
  const handle = response.response.userHandle;
  if (handle && Buffer.from(handle, "base64url").toString("utf8") !== credential.external_id) {
    throw new HttpError(401, "failed to validate assertion");
  }
  const signCount = Number(credential.sign_count);
  let newCounter: number;
  try {
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challengeOf(response.response.clientDataJSON),
      expectedOrigin: origin,
      expectedRPID: rpId,
      credential: {
        id: response.rawId,
        publicKey: new Uint8Array(credential.public_key),
        counter: signCount,
      },
      requireUserVerification: true,
    });
    if (!verification.verified) throw new Error("the signature could not be verified");
    newCounter = verification.authenticationInfo.newCounter;
  } catch (error) {
    throw new HttpError(401, (error as Error).message);
  }
  const token = await signToken(credential.external_id, response.rawId);
  await store.transaction(async (tx) => {
    const updated = await tx.query(
      "UPDATE credentials SET sign_count = $3, last_used_at = now() " +
        "WHERE tenant_id = $1 AND id = $2 AND sign_count = $4 RETURNING 1",
      [tenantId, response.rawId, newCounter, signCount],
    );
    if (updated.length === 0) throw new HttpError(401, "the credential was used during this ceremony");
    await tx.query(
      "INSERT INTO sessions (tenant_id, user_id, credential_id, expires_at) " +
        `VALUES ($1, $2, $3, now() + interval '${TOKEN_LIFETIME_SECONDS} seconds')`,
      [tenantId, credential.user_id, response.rawId],
    );
    await tx.query("INSERT INTO audit_log (tenant_id, type, actor, details) VALUES ($1, $2, $3, $4)", [
      tenantId,
      "passkey.login.finalize.succeeded",
      credential.external_id,
      JSON.stringify({ credential_id: response.rawId }),
    ]);
  });
  return { token };
}

async function registrationInitialize(body: Row, key: string | string[] | undefined): Promise<unknown> {
  await checkApiKey(key);
  const externalId = body.user_id;
  const username = body.username;
  if (typeof externalId !== "string" || typeof username !== "string" || !externalId || !username) {
    throw new HttpError(400, "user_id and username are required");
  }
  const options = await generateRegistrationOptions({
    rpName: "floor",
    rpID: rpId,
    userName: username,
    userDisplayName: username,
    userID: new Uint8Array(Buffer.from(externalId, "utf8")),
    timeout: CHALLENGE_TTL_SECONDS * 1000,
    attestationType: "direct",
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
    supportedAlgorithmIDs: [-8, -7, -257],
  });
  await store.query(INSERT_CHALLENGE, [
    options.challenge,
    tenantId,
    "registration",
    null,
    externalId,
    username,
  ]);
  return { publicKey: options };
}

async function registrationFinalize(body: Row): Promise<unknown> {
  const response = body as unknown as RegistrationResponseJSON;
  const ceremony = await consume("registration", response.response?.clientDataJSON);
  let info;
  try {
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: challengeOf(response.response.clientDataJSON),
      expectedOrigin: origin,
      expectedRPID: rpId,
      requireUserVerification: true,
      supportedAlgorithmIDs: [-8, -7, -257],
    });
    if (!verification.verified) throw new Error("the attestation could not be verified");
    info = verification.registrationInfo;
  } catch (error) {
    throw new HttpError(400, (error as Error).message);
  }
  const externalId = ceremony.external_id!;
  const credentialId = info.credential.id;
  await store.transaction(async (tx) => {
    const [user] = await tx.query<{ id: string }>(
      "INSERT INTO users (tenant_id, external_id, username) VALUES ($1, $2, $3) " +
        "ON CONFLICT (tenant_id, external_id) DO UPDATE SET username = excluded.username RETURNING id",
      [tenantId, externalId, ceremony.username],
    );
    const inserted = await tx.query(
      "INSERT INTO credentials (tenant_id, id, user_id, public_key, sign_count, backup_eligible) " +
        "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING 1",
      [
        tenantId,
        credentialId,
        user!.id,
        Buffer.from(info.credential.publicKey),
        info.credential.counter,
        info.credentialDeviceType === "multiDevice",
      ],
    );
    if (inserted.length === 0) throw new HttpError(400, "this credential is already registered");
    await tx.query("INSERT INTO audit_log (tenant_id, type, actor, details) VALUES ($1, $2, $3, $4)", [
      tenantId,
      "passkey.registration.finalize.succeeded",
      externalId,
      JSON.stringify({ credential_id: credentialId, aaguid: info.aaguid, fmt: info.fmt }),
    ]);
  });
  return { token: await signToken(externalId, credentialId) };
}

// ---- HTTP ----

/** The request's body, which the ceremonies read as an object. */
async function readBody(req: http.IncomingMessage): Promise<Row> {
  const parsed = await readJson(req);
  if (typeof parsed !== "object" || parsed === null) throw new HttpError(400, "malformed JSON");
  return parsed as Row;
}

async function handle(req: http.IncomingMessage): Promise<unknown> {
  const match = PATH.exec(req.url ?? "");
  if (req.method !== "POST" || !match) throw new HttpError(404, "not found");
  const [, tenant = "", ceremony, step] = match;
  if (tenant.toLowerCase() !== tenantId) throw new HttpError(404, "tenant not found");
  const body = await readBody(req);
  if (ceremony === "login") {
    return step === "initialize" ? loginInitialize(body, req.headers.apikey) : loginFinalize(body);
  }
  return step === "initialize"
    ? registrationInitialize(body, req.headers.apikey)
    : registrationFinalize(body);
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  store = url
    ? postgresStore(url)
    : await pgliteStore(path.join(env("SESAME_DATA_DIR", ".data"), "floor-pglite"));
  await store.exec(SCHEMA);
  // The tenant's API key: stored by its prefix and SHA-256, as a product would.
  await store.query(
    "INSERT INTO api_keys (prefix, tenant_id, secret_hash) VALUES ($1, $2, $3) " +
      "ON CONFLICT (prefix) DO UPDATE SET tenant_id = excluded.tenant_id, secret_hash = excluded.secret_hash",
    [apiKey.slice(0, KEY_PREFIX_LENGTH), tenantId, sha256(apiKey)],
  );
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  signingKey = await importPKCS8(privateKey.export({ type: "pkcs8", format: "pem" }).toString(), "RS256");

  const server = http.createServer((req, res) => {
    if (req.method === "GET" && req.url === "/readyz") return send(res, 200, { status: "ok" });
    handle(req).then(
      (body) => send(res, 200, body),
      (error: unknown) => {
        if (error instanceof HttpError)
          return send(res, error.status, { title: [error.message], status: error.status });
        process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
        send(res, 500, { title: ["internal error"], status: 500 });
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  server.listen(port, () => process.stderr.write(`independent floor on port ${port}\n`));
  const shutdown = () => server.close(() => process.exit(0));
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
