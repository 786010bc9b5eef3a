import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { tenants } from "./tenants";
import { users } from "./users";
import { type UafRequestOperation, type UafRequestStatus } from "../enums";
export {
  UAF_OPERATIONS,
  UAF_REQUEST_STATUSES,
  type UafRequestOperation,
  type UafRequestStatus,
} from "../enums";

/**
 * A registered FIDO UAF authenticator key ("device" in the Authenticator API). `(tenant, aaid, key_id)`
 * is unique: the same key registered twice is refused (UAF protocol §3.4.6.5 step 8).
 */
export const uafRegistrations = pgTable(
  "uaf_registrations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    aaid: text("aaid").notNull(),
    /** The KeyID's raw bytes, base64url. */
    keyId: text("key_id").notNull(),
    /** The public key as the authenticator encoded it, base64url. */
    publicKey: text("public_key").notNull(),
    publicKeyAlgAndEncoding: integer("public_key_alg_and_encoding").notNull(),
    signatureAlgAndEncoding: integer("signature_alg_and_encoding").notNull(),
    signCounter: bigint("sign_counter", { mode: "number" }).notNull(),
    regCounter: bigint("reg_counter", { mode: "number" }).notNull(),
    authenticatorVersion: integer("authenticator_version").notNull(),
    attestationType: text("attestation_type").notNull(),
    /** DER certificates, base64, leaf first (basic full), kept for audit. */
    attestationCertificates: text("attestation_certificates")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    facetId: text("facet_id").notNull(),
    /** The protocol version of the response, `major.minor`. */
    upv: text("upv").notNull(),
    appId: text("app_id").notNull(),
    /** `deviceKeyInfo.keyName`, renamable. */
    name: text("name").notNull(),
    deviceOs: text("device_os"),
    osVersion: text("os_version"),
    manufacturer: text("manufacturer"),
    model: text("model"),
    pushToken: text("push_token"),
    /** SHA-256 of `deviceKeyInfo.secret` (hex). */
    secretHash: text("secret_hash"),
    isSecondFactorOnly: boolean("is_second_factor_only").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("uaf_registrations_key").on(t.tenantId, t.aaid, t.keyId),
    index("uaf_registrations_user").on(t.tenantId, t.userId, t.createdAt),
  ],
);

export type UafRegistrationRow = typeof uafRegistrations.$inferSelect;

/**
 * An Authenticator API request (REG, AUTH or DEREG) with everything issued in it, kept exactly, so
 * the response is checked against what was sent. Status moves PENDING → OK | FAILED | INVALIDATED once.
 */
export const uafRequests = pgTable(
  "uaf_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    operation: text("operation").$type<UafRequestOperation>().notNull(),
    status: text("status").$type<UafRequestStatus>().notNull(),
    /** The username shown to the person (UAF RegistrationRequest.username). */
    username: text("username").notNull(),
    /** The UAF request message (JSON array text), as returned in `request`. */
    message: text("message").notNull(),
    appId: text("app_id").notNull(),
    /** Null for DEREG, which has no challenge. */
    challenge: text("challenge"),
    serverData: text("server_data"),
    /** The policy sent with REG and AUTH. */
    policy: jsonb("policy"),
    /** AUTH: the text the user confirms, and the UAF transaction variants as sent. */
    transactionText: text("transaction_text"),
    transaction: jsonb("transaction"),
    /** AUTH and DEREG: the registrations (ids) the request names. */
    deviceIds: uuid("device_ids").array(),
    /** REG: basic full attestation required (`attestationConveyancePreference: direct`). */
    requireFullAttestation: boolean("require_full_attestation").notNull().default(false),
    isSecondFactorOnly: boolean("is_second_factor_only"),
    /** The create body's `clientData` and selection criteria, echoed back. */
    clientData: jsonb("client_data"),
    authenticatorSelection: jsonb("authenticator_selection"),
    /** SHA-256 (hex) of the out-of-band token of the newest QR code; null until one was made. */
    oobTokenHash: text("oob_token_hash"),
    /** The registration the request produced or used (REG, AUTH); null for DEREG and failures. */
    deviceId: uuid("device_id"),
    errorCode: integer("error_code"),
    errorReason: text("error_reason"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    validUntil: timestamp("valid_until", { withTimezone: true, precision: 3 }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    index("uaf_requests_tenant_created").on(t.tenantId, t.createdAt),
    check("uaf_requests_operation", sql`${t.operation} in ('REG', 'AUTH', 'DEREG')`),
    check("uaf_requests_status", sql`${t.status} in ('PENDING', 'OK', 'FAILED', 'INVALIDATED')`),
  ],
);

export type UafRequestRow = typeof uafRequests.$inferSelect;
