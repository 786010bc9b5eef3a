import type { FlowName } from "@/lib/db/schema";
import type { FlowContext, FlowDefinition, InputSpec, Payload } from "./definition";
import { FLOW_ERROR_STATUS, type FlowErrorCode } from "./errors";
import type { InputError } from "./inputs";

/** One input as the client receives it (Hanko's `ResponseInput`). */
export interface ResponseInput {
  name: string;
  type: InputSpec["type"];
  value?: unknown;
  min_length?: number;
  max_length?: number;
  required?: boolean;
  hidden?: boolean;
  allowed_values?: { value: string; name: string }[];
  error?: InputError;
}

export interface ResponseAction {
  href: string;
  action: string;
  description: string;
  inputs: Record<string, ResponseInput>;
}

export interface FlowResponseError {
  code: FlowErrorCode;
  message: string;
}

/** The body of every flow answer (Hanko's flowpilot `Response`). */
export interface FlowResponse {
  name: string;
  status: number;
  payload?: Payload;
  actions: Record<string, ResponseAction>;
  csrf_token: string;
  error?: FlowResponseError;
  links: { name: string; href: string; category: string; target: string }[];
}

/**
 * An action's URL relative to the tenant URL, as Hanko builds it: `/{flow}?action=<name>%40<flow id>`.
 * The client posts to it unchanged, so it works under whatever base URL the client was given.
 */
export function actionHref(flowName: FlowName, action: string, flowId: string): string {
  return `/${flowName}?${new URLSearchParams({ action: `${action}@${flowId}` })}`;
}

export async function inputsOf(
  definition: FlowDefinition,
  action: string,
  ctx: FlowContext,
): Promise<InputSpec[]> {
  const inputs = definition.actions[action]?.inputs ?? [];
  return typeof inputs === "function" ? inputs(ctx) : [...inputs];
}

function responseInput(spec: InputSpec, error: InputError | undefined): ResponseInput {
  return {
    name: spec.name,
    type: spec.type,
    ...(spec.value !== undefined ? { value: spec.value } : {}),
    ...(spec.minLength !== undefined ? { min_length: spec.minLength } : {}),
    ...(spec.maxLength !== undefined ? { max_length: spec.maxLength } : {}),
    ...(spec.required ? { required: true } : {}),
    ...(spec.hidden ? { hidden: true } : {}),
    ...(spec.allowedValues ? { allowed_values: spec.allowedValues } : {}),
    ...(error ? { error } : {}),
  };
}

/** The actions offered in the context's state: those whose availability check passes. */
export async function offeredActions(
  definition: FlowDefinition,
  ctx: FlowContext,
  inputErrors?: { action: string; errors: Record<string, InputError> },
): Promise<Record<string, ResponseAction>> {
  const state = definition.states[ctx.state];
  const offered: Record<string, ResponseAction> = {};
  for (const name of state?.actions ?? []) {
    const action = definition.actions[name];
    if (!action || (action.available && !(await action.available(ctx)))) continue;
    const errors = inputErrors?.action === name ? inputErrors.errors : {};
    const inputs = await inputsOf(definition, name, ctx);
    offered[name] = {
      href: actionHref(definition.name, name, ctx.flowId),
      action: name,
      description: action.description,
      inputs: Object.fromEntries(inputs.map((spec) => [spec.name, responseInput(spec, errors[spec.name])])),
    };
  }
  return offered;
}

/** A flow-level failure before any action ran: state `error`, no actions, no CSRF token, no payload. */
export function errorResponse(code: FlowErrorCode, message: string): FlowResponse {
  return {
    name: "error",
    status: FLOW_ERROR_STATUS[code],
    actions: {},
    csrf_token: "",
    error: { code, message },
    links: [],
  };
}
