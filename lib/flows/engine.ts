import { randomUUID } from "node:crypto";
import { recordAuditEvent, type AuditContext, type AuditEvent } from "@/lib/audit";
import { constantTimeEqual, randomToken, sha256Hex } from "@/lib/crypto";
import { AppError, isFault } from "@/lib/errors";
import { getLogger } from "@/lib/log";
import type { AuthenticatedSession, IssuedSession } from "@/lib/sessions";
import type { Tenant } from "@/lib/tenants";
import type { FlowContext, FlowCookie, FlowDefinition, Payload, Stash, Transition } from "./definition";
import { flowErrors, refusalOf, FLOW_ERROR_STATUS, type FlowRefusal } from "./errors";
import { validateInputs, type InputError } from "./inputs";
import { stepMemo } from "./memo";
import { errorResponse, inputsOf, offeredActions, type FlowResponse } from "./response";
import {
  claimAndSaveStep,
  claimFlow,
  claimStep,
  findFlow,
  unclaimFlow,
  insertFlow,
  saveStep,
  sweepExpiredFlows,
  type FlowState,
} from "./store";

const SWEEP_EVERY = 64;
/** The stash key of the user a profile flow belongs to. */
export const PROFILE_USER = "profile_user_id";

/** What a flow request answers: the body, and the session it starts or ends. */
export interface FlowAnswer {
  response: FlowResponse;
  session?: IssuedSession;
  endsSession?: boolean;
  /** Cookies to set (the third-party `state` cookie). */
  cookies?: FlowCookie[];
  /** With `rate_limit_exceeded`: seconds until the client may try again (`Retry-After`). */
  retryAfterSeconds?: number;
}

export interface FlowRequest {
  /** The caller's valid session (cookie or `Authorization: Bearer`) as the route found it, if any. */
  session: AuthenticatedSession | undefined;
  audit: AuditContext;
  /** The request's `Referer`, if any (the page a flow's SSO redirect returns to by default). */
  referer?: string | undefined;
  /** The browser binding cookies the request carries (`exchange_token` checks them). */
  bindingCookies?: readonly string[] | undefined;
}

export interface ActionBody {
  input_data?: Record<string, unknown> | undefined;
  csrf_token?: string | undefined;
}

/** 32 characters, as Hanko's (24 random bytes, base64url). */
const newCsrfToken = () => randomToken(24);

/** `<action>@<flow id>`, `@` also as `%40` (a client that encoded the href twice). */
export function parseActionParam(value: string): { action: string; flowId: string } | undefined {
  const decoded = value.replaceAll("%40", "@");
  const at = decoded.lastIndexOf("@");
  if (at <= 0 || at === decoded.length - 1) return undefined;
  return { action: decoded.slice(0, at), flowId: decoded.slice(at + 1) };
}

/** The session of a flow that needs one (`unauthorized` without); other flows ignore it. */
function sessionOf(definition: FlowDefinition, request: FlowRequest): AuthenticatedSession | undefined {
  if (!definition.requiresSession) return undefined;
  if (!request.session) throw flowErrors.unauthorized();
  return request.session;
}

function context(
  tenant: Tenant,
  definition: FlowDefinition,
  flow: { id: string; state: string; history: readonly string[]; stash: Stash },
  request: FlowRequest,
  session: AuthenticatedSession | undefined,
): FlowContext {
  return {
    tenant,
    flowId: flow.id,
    flowName: definition.name,
    state: flow.state,
    history: flow.history,
    stash: structuredClone(flow.stash),
    audit: { ...request.audit, actor: session?.user.id ?? request.audit.actor ?? null },
    session,
    cookies: [],
    referer: request.referer,
    bindingCookies: request.bindingCookies ?? [],
    memo: stepMemo(),
  };
}

/** Runs the entered state's hook in a context that names it; returns its payload. */
async function enter(definition: FlowDefinition, ctx: FlowContext): Promise<Payload | null> {
  const hook = definition.states[ctx.state]?.enter;
  return (hook ? await hook(ctx) : undefined) ?? null;
}

/** The context in another state, with a new memo; stash, issued session etc. are shared with `ctx`. */
function at(ctx: FlowContext, state: string, history: string[]): FlowContext {
  return { ...ctx, state, history, memo: stepMemo() };
}

/** The state a transition leads to, and the history there. */
function follow(definition: FlowDefinition, ctx: FlowContext, transition: Transition) {
  const history = [...ctx.history];
  if ("back" in transition) return { state: history.pop() ?? ctx.state, history };
  const target = "to" in transition ? transition.to : ctx.state;
  if (!definition.states[target]) throw new Error(`flow ${definition.name}: no state ${target}`);
  if (target === ctx.state) return { state: target, history };
  const seen = history.indexOf(target);
  // Coming back to a state visited before drops the detour, so `back` never loops.
  if (seen >= 0) return { state: target, history: history.slice(0, seen) };
  if (!definition.states[ctx.state]?.transient) history.push(ctx.state);
  return { state: target, history };
}

/** The audit record of a flow event (`flow.<flow>.<type>`). */
function auditEvent(ctx: FlowContext, type: string, details: Record<string, unknown>): AuditEvent {
  return {
    ...ctx.audit,
    actor: ctx.session?.user.id ?? ctx.issued?.session.userId ?? ctx.audit.actor,
    type: `flow.${ctx.flowName}.${type}`,
    details: { flowId: ctx.flowId, ...details },
  };
}

async function audit(ctx: FlowContext, type: string, details: Record<string, unknown>) {
  await recordAuditEvent(ctx.tenant.id, auditEvent(ctx, type, details));
}

/** Starts a flow (`POST {tenant_url}/{flow}` without `action`): its first state with a CSRF token. */
export async function startFlow(
  tenant: Tenant,
  definition: FlowDefinition,
  request: FlowRequest,
): Promise<FlowAnswer> {
  const session = sessionOf(definition, request);
  const stash: Stash = session ? { [PROFILE_USER]: session.user.id } : {};
  const ctx = context(
    tenant,
    definition,
    { id: randomUUID(), state: definition.initialState, history: [], stash },
    request,
    session,
  );
  const payload = await enter(definition, ctx);
  const csrf = newCsrfToken();
  await insertFlow(
    {
      id: ctx.flowId,
      tenantId: tenant.id,
      name: definition.name,
      state: ctx.state,
      stash: ctx.stash,
      payload,
      csrfHash: sha256Hex(csrf),
      ttlSeconds: definition.ttlSeconds,
    },
    auditEvent(ctx, "started", { state: ctx.state }),
  );
  if (Math.random() * SWEEP_EVERY < 1) await sweepExpiredFlows();
  return {
    response: {
      name: ctx.state,
      status: 200,
      payload: payload ?? {},
      actions: await offeredActions(definition, ctx),
      csrf_token: csrf,
      links: [],
    },
  };
}

/** The states of a flow that offer `action`. */
function statesOffering(definition: FlowDefinition, action: string): string[] {
  return Object.entries(definition.states)
    .filter(([, state]) => state.actions.includes(action))
    .map(([name]) => name);
}

/** The checks on a flow that was read (or claimed): its session, and that the action is offered. */
async function admitFlow(
  tenant: Tenant,
  definition: FlowDefinition,
  flow: FlowState,
  action: string,
  request: FlowRequest,
): Promise<{ flow: FlowState; action: string; ctx: FlowContext }> {
  const session = sessionOf(definition, request);
  if (session && session.user.id !== flow.stash[PROFILE_USER]) throw flowErrors.unauthorized();
  const ctx = context(tenant, definition, flow, request, session);
  const state = definition.states[flow.state];
  const offered = definition.actions[action];
  if (
    !state?.actions.includes(action) ||
    !offered ||
    (offered.available && !(await offered.available(ctx)))
  ) {
    throw flowErrors.notPermitted(`action ${action} is not available in state ${flow.state}`);
  }
  return { flow, action, ctx };
}

/** Checks that may refuse a step without touching the flow (flow-level errors). */
async function admit(
  tenant: Tenant,
  definition: FlowDefinition,
  parsed: { action: string; flowId: string },
  body: ActionBody,
  request: FlowRequest,
): Promise<{ flow: FlowState; action: string; ctx: FlowContext }> {
  const flow = await findFlow(tenant.id, parsed.flowId);
  if (!flow || flow.name !== definition.name) throw flowErrors.notPermitted("unknown flow");
  if (flow.expired) throw flowErrors.expired();
  const csrf = body.csrf_token ?? "";
  if (!csrf || !constantTimeEqual(sha256Hex(csrf), flow.csrfHash)) {
    throw flowErrors.notPermitted("invalid CSRF token");
  }
  return admitFlow(tenant, definition, flow, parsed.action, request);
}

/**
 * Reads and claims the step in one statement when the action must be claimed before it runs and the
 * request names a flow in a state that offers it with its CSRF token; then the remaining checks, and the
 * claim is given back when they refuse. Undefined when the claim did not hold: `admit` then says why.
 */
async function admitClaimed(
  tenant: Tenant,
  definition: FlowDefinition,
  parsed: { action: string; flowId: string },
  body: ActionBody,
  request: FlowRequest,
  nextCsrfHash: string,
): Promise<{ admitted: Awaited<ReturnType<typeof admit>>; version: number } | undefined> {
  const action = definition.actions[parsed.action];
  if (!action || action.writesOnlyTheFlow === true || !body.csrf_token) return undefined;
  const claimed = await claimFlow(
    tenant.id,
    parsed.flowId,
    definition.name,
    statesOffering(definition, parsed.action),
    sha256Hex(body.csrf_token),
    nextCsrfHash,
  );
  if (!claimed) return undefined;
  try {
    return {
      admitted: await admitFlow(tenant, definition, claimed.flow, parsed.action, request),
      version: claimed.version,
    };
  } catch (error) {
    await unclaimFlow(tenant.id, claimed.flow, claimed.version);
    throw error;
  }
}

/**
 * Runs one action of a flow (`POST {tenant_url}/{flow}?action=<name>@<flow id>`). Refusals before the
 * action runs (unknown or expired flow, wrong or used CSRF token, action not offered) leave the flow
 * as it was. Otherwise the step is claimed (its CSRF token swapped for a new one), the inputs are
 * checked and the action runs. A refusal (an AppError that is no fault, answered as `refusalOf` says)
 * keeps the state and stash; a fault or any other error ends the flow in `error`.
 */
export async function runFlowAction(
  tenant: Tenant,
  definition: FlowDefinition,
  actionParam: string,
  body: ActionBody,
  request: FlowRequest,
): Promise<FlowAnswer> {
  const csrf = newCsrfToken();
  const csrfHash = sha256Hex(csrf);
  let admitted: Awaited<ReturnType<typeof admit>>;
  let early: number | undefined;
  try {
    const parsed = parseActionParam(actionParam);
    if (!parsed) throw flowErrors.notPermitted("malformed action parameter");
    const claimed = await admitClaimed(tenant, definition, parsed, body, request, csrfHash);
    early = claimed?.version;
    admitted = claimed?.admitted ?? (await admit(tenant, definition, parsed, body, request));
  } catch (error) {
    if (!(error instanceof AppError) || isFault(error.code)) throw error;
    const refusal = refusalOf(error);
    await recordAuditEvent(tenant.id, {
      ...request.audit,
      type: `flow.${definition.name}.rejected`,
      details: { action: actionParam.slice(0, 200), code: refusal.code, reason: refusal.message },
    });
    return { response: errorResponse(refusal.code, refusal.message) };
  }
  const { flow, action, ctx } = admitted;
  /** The answer to a request whose CSRF token another request used first. */
  const used = async () => {
    const error = flowErrors.notPermitted("the CSRF token was used already");
    await audit(ctx, "rejected", { action, code: error.flowCode, reason: error.message });
    return { response: errorResponse(error.flowCode, error.message) };
  };
  // A step that writes only the flow is claimed when it is saved, in one statement; any other is claimed
  // before its action runs (with its read when it could be), so that of concurrent requests with one
  // token only one runs it.
  const late = definition.actions[action]!.writesOnlyTheFlow === true;
  let claimed = late ? undefined : (early ?? (await claimStep(tenant.id, flow, csrfHash)));
  if (!late && claimed === undefined) return used();
  /** The claimed version: claimed now if the step is claimed late (undefined when another won). */
  const claim = async () => (claimed ??= await claimStep(tenant.id, flow, csrfHash));

  /** The answer that keeps the flow where it was, with an error. */
  const stay = async (
    error: { code: FlowRefusal["code"]; message: string },
    inputErrors?: Record<string, InputError>,
  ) => {
    await audit(ctx, `${action}.failed`, { state: flow.state, code: error.code });
    const offered = await offeredActions(
      definition,
      ctx,
      inputErrors ? { action, errors: inputErrors } : undefined,
    );
    return {
      response: {
        name: flow.state,
        status: FLOW_ERROR_STATUS[error.code],
        payload: flow.payload ?? {},
        actions: offered,
        csrf_token: csrf,
        error: { code: error.code, message: error.message },
        links: [],
      },
    };
  };

  const { values, errors } = validateInputs(await inputsOf(definition, action, ctx), body.input_data ?? {});
  if (Object.keys(errors).length > 0) {
    if ((await claim()) === undefined) return used();
    const invalid = flowErrors.formInvalid();
    // The original stash: nothing of the refused step is kept.
    ctx.stash = structuredClone(flow.stash);
    return stay({ code: invalid.flowCode, message: invalid.message }, errors);
  }

  let entered: FlowContext;
  let payload: Payload | null;
  try {
    const transition = await definition.actions[action]!.run(ctx, values);
    const next = follow(definition, ctx, transition);
    entered = at(ctx, next.state, next.history);
    payload = await enter(definition, entered);
  } catch (error) {
    const version = await claim();
    if (version === undefined) return used();
    if (error instanceof AppError && !isFault(error.code)) {
      const refusal = refusalOf(error, definition.actions[action]!.inputErrors);
      const retry =
        error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds };
      if (refusal.restartAt) {
        return {
          ...(await restart(definition, ctx, flow, version, csrf, action, refusal, refusal.restartAt)),
          ...retry,
        };
      }
      ctx.stash = structuredClone(flow.stash);
      if (refusal.input) {
        const invalid = flowErrors.formInvalid();
        return stay(
          { code: invalid.flowCode, message: invalid.message },
          { [refusal.input]: { code: refusal.code, message: refusal.message } },
        );
      }
      return { ...(await stay(refusal)), ...retry };
    }
    getLogger().error({ err: error, flow: definition.name, action }, "flow action failed");
    await saveStep(tenant.id, flow.id, version, {
      state: "error",
      history: [],
      stash: flow.stash,
      payload: null,
    });
    await audit(ctx, `${action}.failed`, { state: flow.state, code: "technical_error" });
    return { response: errorResponse("technical_error", "Something went wrong") };
  }

  const issued = entered.issued ?? ctx.issued;
  const endsSession = entered.endsSession ?? ctx.endsSession;
  const step = {
    state: entered.state,
    history: [...entered.history],
    stash: entered.stash,
    payload,
  };
  const succeeded = auditEvent({ ...entered, ...(issued ? { issued } : {}) }, `${action}.succeeded`, {
    from: flow.state,
    to: entered.state,
    ...(issued ? { sessionId: issued.session.id } : {}),
  });
  if (claimed !== undefined) await saveStep(tenant.id, flow.id, claimed, step, succeeded);
  else if ((await claimAndSaveStep(tenant.id, flow, csrfHash, step, succeeded)) === undefined) return used();
  return {
    response: {
      name: entered.state,
      status: 200,
      payload: payload ?? {},
      actions: await offeredActions(definition, entered),
      csrf_token: csrf,
      links: [],
    },
    ...(issued ? { session: issued } : {}),
    ...(endsSession ? { endsSession: true } : {}),
    ...(ctx.cookies.length > 0 ? { cookies: ctx.cookies } : {}),
  };
}

/**
 * A refusal that ends the attempt: the flow goes back to `state` with an empty history and no stash of
 * its own (the state's `enter` builds what it needs), answered with the error.
 */
async function restart(
  definition: FlowDefinition,
  ctx: FlowContext,
  flow: FlowState,
  version: number,
  csrf: string,
  action: string,
  error: FlowRefusal,
  state: string,
): Promise<FlowAnswer> {
  ctx.stash = structuredClone(flow.stash);
  const restarted = at(ctx, state, []);
  const payload = await enter(definition, restarted);
  await saveStep(
    ctx.tenant.id,
    flow.id,
    version,
    { state, history: [], stash: restarted.stash, payload },
    auditEvent(ctx, `${action}.failed`, { state: flow.state, code: error.code, restartedAt: state }),
  );
  return {
    response: {
      name: state,
      status: FLOW_ERROR_STATUS[error.code],
      payload: payload ?? {},
      actions: await offeredActions(definition, restarted),
      csrf_token: csrf,
      error: { code: error.code, message: error.message },
      links: [],
    },
  };
}

/**
 * One request to a flow URL: without an action it starts the flow, with one it runs it. The action comes
 * from the URL (`?action=`) or, for the spec's `finalize`, from the body (`name@id`, or `name` + `flow_id`).
 */
export async function handleFlowRequest(
  tenant: Tenant,
  definition: FlowDefinition,
  action: string | undefined,
  body: ActionBody & { action?: string | undefined; flow_id?: string | undefined },
  request: FlowRequest,
): Promise<FlowAnswer> {
  if (action === undefined) return startFlow(tenant, definition, request);
  return runFlowAction(tenant, definition, action, body, request);
}

/** The action a finalize names, wherever it was put; undefined when none. */
export function finalizeAction(
  query: string | undefined,
  body: { action?: string | undefined; flow_id?: string | undefined },
): string | undefined {
  if (query !== undefined) return query;
  if (body.action === undefined) return undefined;
  return body.flow_id !== undefined && !body.action.includes("@")
    ? `${body.action}@${body.flow_id}`
    : body.action;
}
