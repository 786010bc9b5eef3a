import { z } from "zod";
import { UAF_OPERATIONS, UAF_REQUEST_STATUSES } from "@/lib/db/enums";

/** Authenticator API error body; on 404 the field is spelled `messsage` (spec, Errors). */
export const AuthenticatorError = z
  .object({
    code: z.number().int().meta({ description: "The HTTP status code", example: 400 }),
    message: z.string().meta({ example: "Bad Request: body.operation: must be one of AUTH, DEREG, REG" }),
  })
  .meta({ id: "AuthenticatorError", description: "Error body of the Authenticator API (all but 404)." });

export const AuthenticatorNotFound = z
  .object({
    code: z.literal(404),
    messsage: z.string().meta({ example: "request not found" }),
  })
  .meta({
    id: "AuthenticatorNotFound",
    description:
      "The Authenticator API's 404 body: the field is spelled `messsage` (three s), as the spec has it.",
  });

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Bad Request: invalid input",
  401: "Unauthorized: missing or invalid API key (or out-of-band token)",
  404: "Not Found: unknown request, user or device, or one of another tenant",
  409: "Conflict: the request is no longer pending",
  413: "Request body over 64 KiB",
  415: "Body is not application/json",
  500: "Internal Server Error, also when the database does not answer",
};

export function authenticatorErrors(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: ERROR_DESCRIPTIONS[status] ?? "Error",
        content: {
          "application/json": { schema: status === 404 ? AuthenticatorNotFound : AuthenticatorError },
        },
      },
    ]),
  );
}

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
const Uuid = z.uuid("must be a UUID").transform((value) => value.toLowerCase());

export const RequestIdParam = z.object({ id: Uuid.meta({ description: "The request's id" }) });
export const DeviceIdParam = z.object({ deviceId: Uuid.meta({ description: "The device's id" }) });

export const UserId = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(128, "must be at most 128 characters")
  .meta({ description: "The relying party's id of the user", example: "user-4711" });

export const ClientData = z
  .object({ remoteAddress: text(64).optional(), userAgent: text(512).optional() })
  .meta({ id: "ClientData" });

export const AuthenticatorSelectionCriteria = z
  .object({
    authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
    requireResidentKey: z.boolean().optional(),
    userVerification: z.enum(["required", "preferred", "discouraged"]).optional(),
  })
  .meta({ id: "AuthenticatorSelectionCriteria" });

export const CreateRequest = z
  .object({
    operation: z.enum(UAF_OPERATIONS),
    username: z.string().trim().min(1).max(128, "must be at most 128 characters").optional().meta({
      description: "Shown by the authenticator (UAF username); default: the user's username, else userId",
    }),
    userId: UserId.optional().meta({
      description: "Required in practice: REG creates the user, AUTH and DEREG need an existing one",
    }),
    displayName: text(128).optional(),
    clientData: ClientData.optional(),
    transaction: z.string().min(1).max(200, "must be at most 200 characters").optional().meta({
      description: "AUTH only: text the user confirms on the authenticator (UAF text/plain transaction)",
      example: "Transfer $100 to Mike?",
    }),
    deviceIds: z.array(Uuid).min(1).max(64).optional().meta({
      description: "AUTH: only these registrations may answer. DEREG: only these are removed.",
    }),
    authenticatorSelectionCriteria: AuthenticatorSelectionCriteria.optional(),
    attestationConveyancePreference: z.enum(["direct", "indirect", "none"]).optional().meta({
      description: "REG: `direct` requires basic full attestation (surrogate refused)",
    }),
    isSecondFactorOnly: z.boolean().optional(),
  })
  .meta({ id: "CreateRequest" });

export const DeviceKeyInfo = z
  .object({
    pushToken: text(4096).optional(),
    secret: text(1024).optional().meta({ description: "Stored as its SHA-256 hash" }),
    keyName: z.string().trim().max(64, "must be at most 64 characters").optional(),
    deviceOs: text(64).optional(),
    osVersion: text(64).optional(),
    manufacturer: text(64).optional(),
    model: text(64).optional(),
  })
  .meta({ id: "DeviceKeyInfo" });

export const ValidateBody = z
  .object({
    uafResponse: z
      .string()
      .max(64 * 1024)
      .meta({
        description: 'The UAF client\'s response message (JSON array text), or `{"uafProtocolMessage": …}`',
      }),
    deviceKeyInfo: DeviceKeyInfo.optional(),
  })
  .meta({ id: "ValidateRequest" });

const Link = z
  .object({
    rel: z.string().meta({ example: "validate" }),
    method: z.string().meta({ example: "PUT" }),
    href: z.string().meta({ example: "https://auth.example.com/v1/uaf/requests/…" }),
  })
  .meta({ id: "Link" });

const RequestErrorSchema = z
  .object({
    code: z.number().int().meta({ description: "UAF status code (1400–1500)", example: 1498 }),
    reason: z.string().meta({ example: "signature_invalid" }),
  })
  .meta({ id: "RequestError" });

const RelyingParty = z
  .object({ id: z.string(), name: z.string(), appId: z.string(), icon: z.string() })
  .meta({ id: "RelyingParty" });

export const RequestResource = z
  .object({
    id: z.string(),
    operation: z.enum(UAF_OPERATIONS),
    username: z.string(),
    userId: z.string(),
    status: z.enum(UAF_REQUEST_STATUSES),
    createdAt: z.iso.datetime(),
    validUntil: z.iso.datetime(),
    relyingParty: RelyingParty,
    links: z.array(Link),
    request: z
      .string()
      .meta({ description: "The UAF request message: the JSON text of a one-element array" }),
    deviceID: z.string().meta({ description: "The registration produced or used; empty until then" }),
    clientData: ClientData.optional(),
    transaction: z.string().optional(),
    device: z.object({ deviceId: z.string(), keyName: z.string() }).optional(),
    isSecondFactorOnly: z.boolean().optional(),
    error: RequestErrorSchema.optional(),
  })
  .meta({ id: "Request" });

export const AppRequest = z
  .object({
    id: z.string(),
    operation: z.enum(UAF_OPERATIONS),
    status: z.enum(UAF_REQUEST_STATUSES),
    username: z.string(),
    validUntil: z.iso.datetime(),
    relyingParty: RelyingParty,
    request: z.string(),
    transaction: z.string().optional(),
    error: RequestErrorSchema.optional(),
  })
  .meta({ id: "AppRequest", description: "What the authenticator app sees of a request" });

export const AppLink = z
  .object({
    href: z.string().meta({ description: "`<origin>/v1/uaf/app/requests/<id>?token=<out-of-band token>`" }),
    validUntil: z.iso.datetime(),
  })
  .meta({ id: "AppLink" });

export const Device = z
  .object({
    deviceId: z.string(),
    keyName: z.string(),
    authenticatorType: z.literal("FIDO_UAF"),
    aaid: z.string(),
    lastUsage: z.iso.datetime(),
    createdAt: z.iso.datetime(),
    isSecondFactorOnly: z.boolean(),
    deviceOs: z.string().optional(),
    osVersion: z.string().optional(),
    manufacturer: z.string().optional(),
    model: z.string().optional(),
  })
  .meta({ id: "Device" });

export const RenameBody = z
  .object({ newName: z.string().trim().min(1, "must not be empty").max(64, "must be at most 64 characters") })
  .meta({ id: "RenameDevice" });

const hexColour = z
  .string()
  .regex(/^[0-9A-Fa-f]{6}$/, "must be six hex digits without #, such as 1a2b3c")
  .transform((value) => value.toLowerCase());

const pixels = z.coerce
  .number({ error: "must be a whole number from 64 to 2048" })
  .int("must be a whole number from 64 to 2048")
  .min(64, "must be a whole number from 64 to 2048")
  .max(2048, "must be a whole number from 64 to 2048");

export const QrCodeQuery = z.object({
  width: pixels.optional().meta({ description: "Pixels, 64 to 2048 (default 256)" }),
  height: pixels
    .optional()
    .meta({ description: "Pixels, 64 to 2048; the code is square (the smaller side)" }),
  fg: hexColour
    .optional()
    .meta({ description: "Foreground colour, six hex digits without #", example: "000000" }),
  bg: hexColour
    .optional()
    .meta({ description: "Background colour, six hex digits without #", example: "ffffff" }),
});

export const OobTokenQuery = z.object({
  token: z
    .string()
    .max(256)
    .optional()
    .meta({ description: "The out-of-band token from the QR code (missing or wrong: 401)" }),
});
