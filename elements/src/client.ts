import { dispatch, listen, type EventDetails, type EventKey, type FlowName } from "./events";

/** One input of a flow action, as the flow API declares it (Hanko's wire format). */
export interface FlowInput {
  name: string;
  type: "string" | "email" | "password" | "boolean" | "number" | "json";
  required?: boolean;
  hidden?: boolean;
  min_length?: number;
  max_length?: number;
  allowed_values?: { value: string; name: string }[];
  error?: { code: string; message: string } | null;
}

export interface FlowAction {
  href: string;
  action: string;
  description?: string;
  inputs?: Record<string, FlowInput>;
}

export interface FlowState {
  name: string;
  status: number;
  payload?: Record<string, unknown> | null;
  actions?: Record<string, FlowAction> | null;
  csrf_token: string;
  error?: { code: string; message: string } | null;
}

export interface SessionValidation {
  is_valid: boolean;
  claims?: { subject: string; expiration?: string; [claim: string]: unknown };
  expiration_time?: string;
  user_id?: string;
}

export interface CurrentUser {
  id: string;
  email?: string;
  username?: string;
  emails?: { id: string; address: string; is_verified: boolean; is_primary: boolean }[];
  [field: string]: unknown;
}

export interface ClientOptions {
  eventPrefix: string;
  /** How often a known-valid session is checked (ms); 0 = never. Hanko's default is 30 s. */
  sessionCheckInterval: number;
}

/** A failure talking to the API that is not a flow state (network down, HTTP error outside a flow). */
export class SesameRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "SesameRequestError";
  }
}

let getUserWarned = false;

/**
 * The browser SDK: flows, the session and the user, against one tenant URL (`{tenant_url}`).
 * Same-site pages use the session cookie; in the tenant's cross-domain mode the `X-Auth-Token` the API
 * hands out is kept in `localStorage` and sent as a Bearer token.
 */
export class SesameClient {
  readonly api: string;
  readonly options: ClientOptions;
  private knownUserId: string | null = null;
  private checkTimer: ReturnType<typeof setInterval> | undefined;

  constructor(api: string, options: Partial<ClientOptions> = {}) {
    this.api = api.replace(/\/+$/, "");
    this.options = { eventPrefix: "sesame", sessionCheckInterval: 30_000, ...options };
  }

  private get tokenKey(): string {
    return `sesame:${this.api}:token`;
  }

  private token(): string | null {
    try {
      return localStorage.getItem(this.tokenKey);
    } catch {
      return null;
    }
  }

  private storeToken(token: string | null): void {
    try {
      if (token) localStorage.setItem(this.tokenKey, token);
      else localStorage.removeItem(this.tokenKey);
    } catch {
      // Storage refused (private mode): the cookie, where the tenant uses one, still works.
    }
  }

  /** A request to the tenant URL with the session (cookie and, when known, the Bearer token). */
  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("accept", "application/json");
    if (init.body !== undefined) headers.set("content-type", "application/json");
    const token = this.token();
    if (token && !headers.has("authorization")) headers.set("authorization", `Bearer ${token}`);
    let response: Response;
    try {
      response = await fetch(`${this.api}${path}`, { ...init, headers, credentials: "include" });
    } catch (error) {
      throw new SesameRequestError(`Sesame cannot be reached: ${(error as Error).message}`, 0);
    }
    const issued = response.headers.get("x-auth-token");
    if (issued) this.storeToken(issued);
    return response;
  }

  private async flowRequest(path: string, body?: unknown): Promise<FlowState> {
    const response = await this.request(path, {
      method: "POST",
      // The page's full URL, also across origins: an SSO login returns to it (the login flow's
      // routing of an SSO domain's address takes its `Referer`).
      referrerPolicy: "no-referrer-when-downgrade",
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const state = (await response.json().catch(() => null)) as FlowState | null;
    if (!state || typeof state.name !== "string") {
      throw new SesameRequestError(
        `The flow API answered ${response.status} without a flow state`,
        response.status,
      );
    }
    // The session this page knew ended meanwhile (revoked, expired, signed out elsewhere): say so at
    // once, as the periodic check would, so the page can send the user to sign in (issue 29, bug 2).
    if (state.error?.code === "unauthorized") this.sessionEnded(this.knownUserId);
    return state;
  }

  /** `POST {tenant_url}/{flow}`: a new flow in its first state. */
  startFlow(flow: FlowName): Promise<FlowState> {
    return this.flowRequest(`/${flow}`);
  }

  /** Submits an action of `state` with its input values; answers the next state (or the same, with errors). */
  runAction(state: FlowState, action: string, inputs: Record<string, unknown> = {}): Promise<FlowState> {
    const href = state.actions?.[action]?.href;
    // Status -1: a mistake of the caller, not the network (status 0).
    if (!href) throw new SesameRequestError(`The action ${action} is not offered in ${state.name}`, -1);
    return this.flowRequest(href, { input_data: inputs, csrf_token: state.csrf_token });
  }

  /** `GET {tenant_url}/sessions/validate`: whether this browser holds a valid session. */
  async validateSession(): Promise<SessionValidation> {
    const response = await this.request("/sessions/validate");
    if (!response.ok) return { is_valid: false };
    const validation = (await response.json()) as SessionValidation;
    this.track(validation.is_valid ? (validation.claims?.subject ?? null) : null);
    return validation;
  }

  /** The signed-in user (`GET /me`, then `GET /users/{id}`), or null without a valid session. */
  async getCurrentUser(): Promise<CurrentUser | null> {
    const me = await this.request("/me");
    if (me.status === 401 || me.status === 404) return null;
    if (!me.ok) throw new SesameRequestError(`GET /me answered ${me.status}`, me.status);
    const { id } = (await me.json()) as { id: string };
    if (this.knownUserId !== id) this.track(id);
    const user = await this.request(`/users/${encodeURIComponent(id)}`);
    if (!user.ok) return { id };
    const body = (await user.json()) as CurrentUser;
    const primary = body.emails?.find((email) => email.is_primary);
    return { ...body, id, ...(primary && !body.email ? { email: primary.address } : {}) };
  }

  /**
   * @deprecated Use `getCurrentUser()`; `getUser()` stays for older integrations, answers the same and
   * warns once.
   */
  getUser(): Promise<CurrentUser | null> {
    if (!getUserWarned) {
      getUserWarned = true;
      // eslint-disable-next-line no-console -- the deprecation warning is the point
      console.warn("Sesame: getUser() is deprecated; use getCurrentUser() instead (same result).");
    }
    return this.getCurrentUser();
  }

  /** Ends the session (`POST /logout`), forgets the token and dispatches `<prefix>-logout`. */
  async logout(): Promise<void> {
    const userId = this.knownUserId;
    const response = await this.request("/logout", { method: "POST" });
    this.storeToken(null);
    this.track(null);
    if (!response.ok && response.status !== 401) {
      throw new SesameRequestError(`POST /logout answered ${response.status}`, response.status);
    }
    dispatch(document, this.options.eventPrefix, "logout", { userId });
  }

  /** Called when a flow ends with a session: starts watching it for expiry. */
  sessionStarted(userId: string): void {
    this.track(userId);
  }

  /** Watches a known session: when it stops being valid, `<prefix>-session-expired` fires once. */
  private track(userId: string | null): void {
    this.knownUserId = userId;
    clearInterval(this.checkTimer);
    this.checkTimer = undefined;
    if (!userId || this.options.sessionCheckInterval <= 0 || typeof window === "undefined") return;
    this.checkTimer = setInterval(() => {
      void this.checkSession();
    }, this.options.sessionCheckInterval);
  }

  private async checkSession(): Promise<void> {
    const userId = this.knownUserId;
    if (!userId) return;
    let valid = true;
    try {
      const response = await this.request("/sessions/validate");
      // Only Sesame's word ends a session: a 429 or a proxy's 502 says nothing about it.
      if (response.status === 401) valid = false;
      else if (response.ok) valid = ((await response.json()) as SessionValidation).is_valid;
    } catch {
      return; // offline: say nothing until Sesame answers
    }
    if (!valid) this.sessionEnded(userId);
  }

  /** Forgets the session of `userId` and dispatches `<prefix>-session-expired`, once per known session. */
  private sessionEnded(userId: string | null): void {
    if (!userId || this.knownUserId !== userId) return;
    this.storeToken(null);
    this.track(null);
    dispatch(document, this.options.eventPrefix, "sessionExpired", { userId });
  }

  /** `on("authSuccess", detail => …)`: listens on `document`; returns the function that stops it. */
  on<K extends EventKey>(key: K, callback: (detail: EventDetails[K]) => void): () => void {
    return listen(this.options.eventPrefix, key, callback);
  }

  onAuthSuccess(callback: (detail: EventDetails["authSuccess"]) => void) {
    return this.on("authSuccess", callback);
  }
  onAuthError(callback: (detail: EventDetails["authError"]) => void) {
    return this.on("authError", callback);
  }
  onLogout(callback: (detail: EventDetails["logout"]) => void) {
    return this.on("logout", callback);
  }
  onSessionExpired(callback: (detail: EventDetails["sessionExpired"]) => void) {
    return this.on("sessionExpired", callback);
  }
}
