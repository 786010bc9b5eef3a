import { createDocument, type ZodOpenApiObject, type ZodOpenApiOperationObject } from "zod-openapi";
import { getConfig } from "@/lib/config";
import type { AuthRequirement, Surface } from "@/lib/contracts/contract";
import { SURFACE_DOCUMENTS } from "./surfaces";

const SECURITY_SCHEMES = {
  adminKey: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "API key",
    description: "`Authorization: Bearer <API key>` with the `admin` scope of the tenant in the path.",
  },
  passkeyKey: {
    type: "apiKey",
    in: "header",
    name: "apiKey",
    description:
      "`apiKey: <API key>` (at least 32 characters) with the `passkey` scope of the tenant in the path.",
  },
  authenticatorKey: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "API key",
    description:
      "`Authorization: secret <API key>` or `Authorization: Bearer <API key>` with the `authenticator` scope; the key names the tenant.",
  },
  sessionToken: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "A session: `Authorization: Bearer <session JWT>` or the tenant's session cookie (HttpOnly, default name `hanko`).",
  },
} as const;

const SECURITY_FOR: Record<AuthRequirement["kind"], keyof typeof SECURITY_SCHEMES | undefined> = {
  none: undefined,
  "admin-key": "adminKey",
  "passkey-key": "passkeyKey",
  "authenticator-key": "authenticatorKey",
  session: "sessionToken",
};

/** The OpenAPI 3.1 document of one surface, or undefined when the surface has no routes yet. */
export function createSurfaceDocument(surface: Surface): ReturnType<typeof createDocument> | undefined {
  const surfaceDocument = SURFACE_DOCUMENTS[surface];
  if (!surfaceDocument) return undefined;
  const paths: NonNullable<ZodOpenApiObject["paths"]> = {};
  const usedSchemes = new Set<keyof typeof SECURITY_SCHEMES>();

  for (const contract of surfaceDocument.contracts) {
    const scheme = SECURITY_FOR[contract.auth.kind];
    if (scheme) usedSchemes.add(scheme);
    const operation: ZodOpenApiOperationObject = {
      operationId: contract.operationId,
      summary: contract.summary,
      description: contract.description,
      tags: contract.tags,
      ...(contract.deprecated ? { deprecated: true } : {}),
      security: scheme ? [{ [scheme]: [] }] : [],
      requestParams: {
        ...(contract.params ? { path: contract.params } : {}),
        ...(contract.query ? { query: contract.query } : {}),
      },
      responses: contract.responses,
    };
    if (contract.body) {
      operation.requestBody = {
        required: !contract.emptyBodyAs,
        content: { "application/json": { schema: contract.body } },
      };
    }
    paths[contract.path] = { ...paths[contract.path], [contract.method.toLowerCase()]: operation };
  }

  return createDocument({
    openapi: "3.1.0",
    info: { title: surfaceDocument.title, version: "1.0.0", description: surfaceDocument.description },
    servers: [{ url: `${getConfig().baseUrl}${surfaceDocument.serverPath}` }],
    paths,
    components: {
      securitySchemes: Object.fromEntries([...usedSchemes].map((name) => [name, SECURITY_SCHEMES[name]])),
    },
  });
}

export function documentedSurfaces(): Surface[] {
  return Object.keys(SURFACE_DOCUMENTS) as Surface[];
}
