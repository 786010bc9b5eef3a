import type { AuditContext } from "@/lib/audit";
import type { FlowName } from "@/lib/db/schema";
import type { AuthenticatedSession, IssuedSession } from "@/lib/sessions";
import type { Tenant } from "@/lib/tenants";
import type { User } from "@/lib/users";
import type { InputErrorRules } from "./errors";

/** Input types of Hanko's flowpilot (`backend/flowpilot/input.go`). */
export type InputType = "string" | "boolean" | "email" | "number" | "password" | "json";

/**
 * One input of an action: the engine validates submitted values against it and hands it to the client,
 * which renders its form from it (one declaration for both).
 */
export interface InputSpec {
  name: string;
  type: InputType;
  required?: boolean;
  hidden?: boolean;
  /** For strings: length in characters (after trimming, for non-passwords). */
  minLength?: number;
  maxLength?: number;
  /** A value the client sends back unless the user changes it (Hanko's `value`). */
  value?: unknown;
  allowedValues?: { value: string; name: string }[];
  /** For json: a JSON `null` is a value (it clears, as Hanko's `patch_metadata`), not a missing one. */
  nullable?: boolean;
}

export type Payload = Record<string, unknown>;
export type Stash = Record<string, unknown>;

/** A cookie an action sets on the answer (the third-party `state` binding to the browser). */
export interface FlowCookie {
  name: string;
  value: string;
  maxAgeSeconds: number;
  path: string;
  /** Lax unless said otherwise (`none`: a provider that posts back cross-site, such as Apple). */
  sameSite?: "lax" | "none";
}

/** Where a step leads: another state, back to the previous one, or the current state again (re-entered). */
export type Transition = { to: string } | { back: true } | { stay: true };

/** What actions, availability checks and state hooks see and change. */
export interface FlowContext {
  readonly tenant: Tenant;
  readonly flowId: string;
  readonly flowName: FlowName;
  /** The state the step started in (the state being entered, inside `enter`). */
  readonly state: string;
  /** States visited before, last = previous (what `back` returns to). */
  readonly history: readonly string[];
  /** Data carried from step to step; changes are saved with the step. */
  stash: Stash;
  readonly audit: AuditContext;
  /** The caller's session (profile flow): checked before every step. */
  readonly session: AuthenticatedSession | undefined;
  /** Set by an action: the session the answer starts (cookie or `X-Auth-Token`). */
  issued?: IssuedSession;
  /** Set with `issued`: the user it was issued to, as loaded by the step (`success` shows it). */
  issuedTo?: User;
  /** Set by an action: the answer clears the session cookie (account deleted). */
  endsSession?: boolean;
  /** Cookies the answer sets (shared by the step's contexts: an action pushes, the answer sends). */
  readonly cookies: FlowCookie[];
  /**
   * The page the request came from (`Referer`), if the browser sent it: where a login routed to an
   * SSO identity provider returns when the client named no `redirect_to`.
   */
  readonly referer: string | undefined;
  /**
   * The browser binding cookies the request carries (the third-party and SAML starts'): with the
   * `code_verifier`, what `exchange_token` checks to know the browser started the sign-in.
   */
  readonly bindingCookies: readonly string[];
  /**
   * The step's memo: `load` runs once per key while the context lives, so availability checks, inputs
   * and the action see the same data. The state a step enters gets a new context and a new memo.
   */
  memo<T>(key: string, load: () => Promise<T>): Promise<T>;
}

export interface ActionDefinition {
  description: string;
  /** Fixed, or computed for the context (after `available` ran on it). */
  inputs?: readonly InputSpec[] | ((ctx: FlowContext) => InputSpec[] | Promise<InputSpec[]>);
  /** Whether the action is offered in the current situation; not offered = left out of `actions`. */
  available?: (ctx: FlowContext) => boolean | Promise<boolean>;
  run: (ctx: FlowContext, input: Record<string, unknown>) => Promise<Transition>;
  /**
   * The action, and the state it enters, write nothing but the flow (at most something an abandoned
   * step leaves harmlessly behind, such as an unused challenge): the engine then claims and saves the
   * step in one statement after the action ran, instead of claiming it before (docs/performance.md).
   */
  writesOnlyTheFlow?: boolean;
  /**
   * The domain codes `run` (or the state it enters) may throw that belong to one of its inputs: the
   * engine answers them `form_data_invalid_error` with the flow code on `inputs.<input>.error`. Codes
   * not named here are answered as FLOW_ERRORS says.
   */
  inputErrors?: InputErrorRules;
}

export interface StateDefinition {
  /** The actions of the state, in the order the answer lists them. */
  actions: readonly string[];
  /** Runs when the state is entered; its result is the state's payload (kept with the flow). */
  enter?: (ctx: FlowContext) => Promise<Payload | undefined>;
  /** Not returned to by `back` (e.g. `preflight`). */
  transient?: boolean;
}

export interface FlowDefinition {
  name: FlowName;
  /** How long a flow may take from its start. */
  ttlSeconds: number;
  initialState: string;
  /** The caller must hold a session of the tenant (profile). */
  requiresSession?: boolean;
  states: Record<string, StateDefinition>;
  actions: Record<string, ActionDefinition>;
}

/** A flow's declaration, type-checked so every state names only declared actions. */
export function defineFlow<A extends string, S extends string>(flow: {
  name: FlowName;
  ttlSeconds: number;
  initialState: NoInfer<S>;
  requiresSession?: boolean;
  states: Record<
    S,
    { actions: readonly NoInfer<A>[]; enter?: StateDefinition["enter"]; transient?: boolean }
  >;
  actions: Record<A, ActionDefinition>;
}): FlowDefinition {
  return flow;
}
