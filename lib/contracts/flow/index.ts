import { z } from "zod";
import { FLOW_NAMES, type FlowName } from "@/lib/db/enums";
import { defineContract, type Contract } from "@/lib/contracts/contract";
import { TenantIdParam } from "../schemas";

const FlowInput = z
  .object({
    name: z.string(),
    type: z.enum(["string", "boolean", "email", "number", "password", "json"]),
    value: z.unknown().optional(),
    min_length: z.number().int().optional(),
    max_length: z.number().int().optional(),
    required: z.boolean().optional(),
    hidden: z.boolean().optional(),
    allowed_values: z.array(z.object({ value: z.string(), name: z.string() })).optional(),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
  })
  .meta({
    id: "FlowInput",
    description: "An input of an action: type and validation rules, for the client's form",
  });

const FlowAction = z
  .object({
    href: z.string().meta({
      description:
        "Where to post the action, relative to the tenant URL: `/{flow}?action=<name>%40<flow id>`",
    }),
    action: z.string(),
    description: z.string(),
    inputs: z.record(z.string(), FlowInput),
  })
  .meta({ id: "FlowAction" });

export const FlowResponseSchema = z
  .object({
    name: z.string().meta({ description: "The current state (`error` for a refused request)" }),
    status: z.number().int().meta({ description: "The HTTP status, repeated" }),
    payload: z.record(z.string(), z.unknown()).optional().meta({
      description: "State data: WebAuthn options, the user, the session's claims on `success`…",
    }),
    actions: z.record(z.string(), FlowAction).meta({ description: "The actions available now, by name" }),
    csrf_token: z.string().meta({ description: "Send it with the next action; valid once" }),
    error: z
      .object({ code: z.string(), message: z.string() })
      .optional()
      .meta({ description: "Hanko's error codes (`passcode_invalid`, `flow_expired_error`, …)" }),
    links: z.array(
      z.object({ name: z.string(), href: z.string(), category: z.string(), target: z.string() }),
    ),
  })
  .meta({ id: "FlowResponse" });

export const FlowActionBody = z
  .object({
    input_data: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: "The action's inputs by name" }),
    csrf_token: z.string().max(256).optional().meta({ description: "The `csrf_token` of the last answer" }),
    action: z.string().max(300).optional().meta({
      description:
        "finalize only, when the URL has no `?action=`: `<name>@<flow id>`, or the name with `flow_id`",
    }),
    flow_id: z.string().max(64).optional(),
  })
  .meta({ id: "FlowActionRequest" });

const FlowNameParam = z.enum(FLOW_NAMES).meta({ description: "The flow" });
const ActionQuery = z.object({
  action: z
    .string()
    .max(300)
    .optional()
    .meta({ description: "`<action name>@<flow id>` (`@` may be sent as `%40`); absent: start a new flow" }),
});

const flowResponses = {
  "429": {
    description:
      "Over the tenant's `flow` rate limit (per IP; default 300 requests a minute): `rate_limit_exceeded` with `Retry-After`",
    content: { "application/json": { schema: FlowResponseSchema } },
  },
  "200": {
    description:
      "The flow's new state, or the same state with an `error` (its `status` and the HTTP status agree)",
    content: { "application/json": { schema: FlowResponseSchema } },
  },
  default: {
    description:
      'A refused request: `name: error`, `actions: {}`, `csrf_token: ""` and the error (403 operation_not_permitted_error, 410 flow_expired_error, 401 unauthorized, 404 not_found, 400 form_data_invalid_error, 429 rate_limit_exceeded, 500 technical_error)',
    content: { "application/json": { schema: FlowResponseSchema } },
  },
};

/** The flows that act for the signed-in user: the engine answers `unauthorized` to them without a session. */
const SESSION_FLOWS: readonly FlowName[] = ["profile"];
/** The route resolves the caller's session only for those flows: other flows leave it untouched (idle time). */
const readsSession = (flow: unknown) => SESSION_FLOWS.some((name) => name === flow);

const common = {
  surface: "flow",
  loadsTenant: true,
  cors: "tenant-credentials",
  auth: { kind: "none" },
  rateLimit: "flow",
} as const;

const DESCRIPTIONS: Record<FlowName, string> = {
  login:
    "Log in: identifier (email or username) → passkey, passcode or password → second factor when the user has one → `success`. Passkey autofill from `login_init`.",
  registration:
    "Sign up: email and/or username → the email's passcode → a passkey or a password → `success`.",
  profile:
    "The signed-in user's profile (needs the session cookie or `Authorization: Bearer`): emails, passkeys, password, username, second factors, sessions, account deletion.",
  token_exchange: "A one-time token (third-party or SAML login) for a session.",
};

/** Hanko's routing: `POST {tenant_url}/{flow}` starts, `?action=<name>@<flow id>` runs an action. */
function hankoContract(name: FlowName) {
  return defineContract({
    ...common,
    tags: ["Flows"],
    method: "POST",
    path: `/t/{tenantId}/${name}`,
    operationId: `${name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())}Flow`,
    summary: `The ${name} flow (Hanko's URL form)`,
    description: `${DESCRIPTIONS[name]} Without \`action\` the body is ignored and a new flow starts in its first state.`,
    params: z.object({ tenantId: TenantIdParam }),
    session: () => readsSession(name),
    query: ActionQuery,
    body: FlowActionBody,
    emptyBodyAs: "empty-object",
    responses: flowResponses,
  });
}

export const loginFlow = hankoContract("login");
export const registrationFlow = hankoContract("registration");
export const profileFlow = hankoContract("profile");
export const tokenExchangeFlow = hankoContract("token_exchange");

const flowParams = z.object({ tenantId: TenantIdParam, flow: FlowNameParam });

/** The same flows under `{tenant_url}/flow/{flow}`, so `{tenant_url}/flow` also works as a client's base URL. */
export const flowByName = defineContract({
  ...common,
  tags: ["Flows"],
  method: "POST",
  path: "/t/{tenantId}/flow/{flow}",
  operationId: "runFlow",
  summary: "Start a flow or run an action (Hanko's form under /flow)",
  description: "As `POST /t/{tenantId}/{flow}`: without `action` a new flow starts; with it the action runs.",
  params: flowParams,
  session: (params) => readsSession(params.flow),
  query: ActionQuery,
  body: FlowActionBody,
  emptyBodyAs: "empty-object",
  responses: flowResponses,
});

export const initializeFlow = defineContract({
  ...common,
  tags: ["Flows"],
  method: "POST",
  path: "/t/{tenantId}/flow/{flow}/initialize",
  operationId: "initializeFlow",
  summary: "Initialize a flow",
  description:
    "Starts a flow and answers its first state with the available actions and a CSRF token. The body, if any, is ignored.",
  params: flowParams,
  session: (params) => readsSession(params.flow),
  responses: flowResponses,
});

export const finalizeFlow = defineContract({
  ...common,
  tags: ["Flows"],
  method: "POST",
  path: "/t/{tenantId}/flow/{flow}/finalize",
  operationId: "finalizeFlow",
  summary: "Submit an action",
  description:
    'Runs an action of a flow and answers the next state. The action comes as `?action=<name>@<flow id>` (as in the `href`s), or in the body as `action: "<name>@<flow id>"`, or as `action` and `flow_id`.',
  params: flowParams,
  session: (params) => readsSession(params.flow),
  query: ActionQuery,
  body: FlowActionBody,
  emptyBodyAs: "empty-object",
  responses: flowResponses,
});

export const FLOW_CONTRACTS: Contract[] = [
  loginFlow,
  registrationFlow,
  profileFlow,
  tokenExchangeFlow,
  flowByName,
  initializeFlow,
  finalizeFlow,
];
