import {
  WebAuthnAbortService,
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  platformAuthenticatorIsAvailable,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser";
import { LitElement, html, nothing, unsafeCSS, type PropertyValues, type TemplateResult } from "lit";
import { keyed } from "lit/directives/keyed.js";
import {
  SesameRequestError,
  type FlowAction,
  type FlowInput,
  type FlowState,
  type SesameClient,
} from "./client";
import { dispatch, listen, type FlowName, type SessionClaims } from "./events";
import { errorText, translator, type Translate, type Translations } from "./i18n";
import { CSS } from "./styles";

/** What `register()` set up, shared by every element on the page. */
export interface ElementsConfig {
  client: SesameClient;
  prefix: string;
  shadow: boolean;
  lang: string | undefined;
  translations: Translations;
}

let config: ElementsConfig | undefined;
export function configure(next: ElementsConfig): void {
  config = next;
}
export function currentConfig(): ElementsConfig | undefined {
  return config;
}

let instances = 0;

/** Actions the element runs by itself: they never get a button. */
const AUTOMATIC = new Set([
  "register_client_capabilities",
  // Run with `?hanko_token=` when the browser comes back from a provider.
  "exchange_token",
  "webauthn_verify_assertion_response",
  "webauthn_verify_attestation_response",
]);
/** Actions with one button per provider (the `provider` input's allowed values). */
const PROVIDER_ACTIONS = new Set(["thirdparty_oauth", "connect_thirdparty_oauth_provider"]);
/** Actions shown as secondary buttons, after the main ones. */
const SECONDARY = new Set(["back", "skip", "resend_passcode"]);

interface LocalError {
  code: string;
  message: string;
}

/**
 * A custom element that drives one flow of the flow API. It renders whatever the current state offers,
 * from the state's own declaration of actions and inputs (so a new action or input needs no new UI
 * code), and runs the WebAuthn steps by itself: capabilities at the start, the passkey ceremony when a
 * state hands out options, and passkey autofill (conditional mediation) on the login page.
 */
export abstract class SesameFlowElement extends LitElement {
  static override properties = {
    lang: { type: String, reflect: true },
    loginHint: { type: String, attribute: "login-hint" },
    state: { state: true },
    busy: { state: true },
    localError: { state: true },
  };

  /** The flow this element starts with. */
  protected abstract initialFlow(): FlowName;

  declare lang: string;
  /** `login-hint`: the identifier the login's first step starts with (e.g. OpenID Connect's `login_hint`). */
  declare loginHint: string | undefined;
  protected state: FlowState | undefined;
  protected busy = false;
  protected localError: LocalError | undefined;
  protected flow: FlowName = "login";
  protected readonly uid = `sesame-${++instances}`;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** The autofill request under way (0: none); each request has its own number. */
  private autofillRequest = 0;
  private autofillCounter = 0;
  private interacted = false;
  /** This tab's verifier for the next provider sign-in (kept with the `thirdparty` state while away). */
  private readonly providerVerifier = newVerifier();
  /** Bumped by every start: an answer to a request of an earlier flow is dropped. */
  private generation = 0;
  /** Bumped by every step that succeeded: the page's DOM (and what was typed) starts afresh. */
  protected steps = 0;
  private focusedState = "";
  private stopListening: (() => void)[] = [];

  protected get config(): ElementsConfig {
    if (!config) throw new Error("Sesame elements: call register(apiUrl) before using the elements");
    return config;
  }

  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    if (config && !config.shadow) return this;
    const root = this.attachShadow({ mode: "open", delegatesFocus: true });
    const style = document.createElement("style");
    style.textContent = unsafeCSS(CSS.replaceAll("HOST", ":host")).cssText;
    root.append(style);
    return root;
  }

  protected get t(): Translate {
    const lang = this.lang || this.config.lang || document.documentElement.lang || "en";
    return translator(lang, this.config.translations);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // When the session ends (logout, expiry), start again: the login page, or the profile's refusal.
    const restart = () => void this.start(this.initialFlow());
    this.stopListening = [
      listen(this.config.prefix, "logout", restart),
      listen(this.config.prefix, "sessionExpired", restart),
    ];
    if (!this.state && !this.busy) void this.resume();
  }

  /**
   * The first start on a page: back from a third-party provider or an SSO identity provider
   * (`?hanko_token=` or `?error=`), the flow left in `thirdparty` goes on; else the element's flow starts.
   */
  private async resume(): Promise<void> {
    const back = takeProviderReturn(this.config.client.api);
    if (!back) return this.start(this.initialFlow());
    const saved = back.saved;
    if (back.token) {
      if (saved?.state.actions?.exchange_token) {
        this.flow = saved.flow;
        this.state = saved.state;
        return this.run("exchange_token", {
          token: back.token,
          ...(back.verifier ? { code_verifier: back.verifier } : {}),
        });
      }
      // No flow of this page (another tab, or an SSO login the identity provider started): a
      // token_exchange flow takes the token; the profile never starts a session of its own.
      if (this.initialFlow() === "profile") return this.start("profile");
      await this.start("token_exchange");
      if (this.state?.actions?.exchange_token) {
        await this.run("exchange_token", {
          token: back.token,
          ...(back.verifier ? { code_verifier: back.verifier } : {}),
        });
      }
      return;
    }
    if (saved?.state.actions?.back) {
      this.flow = saved.flow;
      this.state = saved.state;
      await this.run("back");
    } else {
      await this.start(saved?.flow ?? this.initialFlow());
    }
    const code = back.error === "access_denied" ? "third_party_access_denied" : "technical_error";
    this.fail(code, back.errorDescription ?? back.error ?? "");
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const stop of this.stopListening) stop();
    clearTimeout(this.refreshTimer);
    this.cancelAutofill();
  }

  /** Starts (or restarts) a flow. */
  protected async start(flow: FlowName): Promise<void> {
    this.cancelAutofill();
    this.generation += 1;
    this.flow = flow;
    this.localError = undefined;
    await this.step(() => this.config.client.startFlow(flow));
  }

  /** Runs one request that answers a flow state, and takes that state. */
  private async step(request: () => Promise<FlowState>): Promise<void> {
    const generation = this.generation;
    this.busy = true;
    let next: FlowState;
    try {
      next = await request();
    } catch (error) {
      if (generation !== this.generation) return;
      const code =
        error instanceof SesameRequestError && error.status === 0 ? "network_error" : "technical_error";
      this.fail(code, (error as Error).message);
      return;
    } finally {
      if (generation === this.generation) this.busy = false;
    }
    // A newer flow was started meanwhile (a link, a logout): this answer belongs to the old one.
    if (generation !== this.generation) return;
    await this.take(next);
  }

  /** Submits an action of the current state. */
  protected async run(action: string, inputs: Record<string, unknown> = {}): Promise<void> {
    const state = this.state;
    if (!state || this.busy) return;
    this.interacted = true;
    this.cancelAutofill();
    this.localError = undefined;
    await this.step(() => this.config.client.runAction(state, action, inputs));
  }

  private fail(code: string, message: string, state = this.state?.name ?? "none"): void {
    this.localError = { code, message };
    dispatch(this, this.config.prefix, "authError", {
      flow: this.flow,
      state,
      code,
      message,
    });
  }

  private async take(state: FlowState): Promise<void> {
    clearTimeout(this.refreshTimer);
    const payload = state.payload ?? {};
    const actions = state.actions ?? {};
    if (state.name === "preflight" && actions.register_client_capabilities) {
      // Not shown, and not a step the user took (no focus move afterwards).
      const found = await capabilities();
      await this.step(() => this.config.client.runAction(state, "register_client_capabilities", found));
      return;
    }
    if (!state.error) this.steps += 1;
    this.state = state;
    if (state.error) {
      dispatch(this, this.config.prefix, "authError", {
        flow: this.flow,
        state: state.name,
        code: state.error.code,
        message: state.error.message,
      });
    }
    if (state.name === "success") {
      this.succeeded(payload);
      return;
    }
    if (state.name === "thirdparty" && !state.error && typeof payload.redirect_url === "string") {
      // To the provider (or the SSO start); the state waits here for the way back (`resume`).
      saveProviderState(this.config.client.api, this.flow, state, this.providerVerifier);
      window.location.assign(payload.redirect_url);
      return;
    }
    // After a refusal the state comes back with its old options, whose challenge is used up: no
    // automatic ceremony then (it would fail again, and prompt the user again and again); the page shows
    // the error and its actions (back, or the button that asks for new options).
    if (state.error) return;
    const creation = payload.creation_options as { publicKey?: unknown } | undefined;
    if (creation?.publicKey && actions.webauthn_verify_attestation_response) {
      await this.createCredential(creation.publicKey);
      return;
    }
    const request = payload.request_options as { publicKey?: { timeout?: number } } | undefined;
    if (request?.publicKey && actions.webauthn_verify_assertion_response) {
      if (state.name === "login_init") this.startAutofill(request.publicKey);
      else await this.getCredential(request.publicKey);
    }
  }

  private succeeded(payload: Record<string, unknown>): void {
    const claims = (payload.claims ?? {}) as SessionClaims;
    const userId =
      claims.subject ?? String((payload.user as { user_id?: string } | undefined)?.user_id ?? "");
    const method = claims.amr?.[0] ?? null;
    this.config.client.sessionStarted(userId);
    const { prefix } = this.config;
    dispatch(this, prefix, "authSuccess", { flow: this.flow, userId, method, claims });
    if (this.flow === "login") dispatch(this, prefix, "login", { userId, method });
    if (this.flow === "registration") dispatch(this, prefix, "registration", { userId });
  }

  private async createCredential(publicKey: unknown): Promise<void> {
    try {
      const response = await startRegistration({ optionsJSON: publicKey as never });
      await this.run("webauthn_verify_attestation_response", { public_key: response });
    } catch (error) {
      await this.webauthnFailed(error);
    }
  }

  private async getCredential(publicKey: unknown): Promise<void> {
    try {
      const response = await startAuthentication({ optionsJSON: publicKey as never });
      await this.run("webauthn_verify_assertion_response", { assertion_response: response });
    } catch (error) {
      await this.webauthnFailed(error);
    }
  }

  /** The user cancelled, or the authenticator refused: back to where they came from, with a message. */
  private async webauthnFailed(error: unknown): Promise<void> {
    const message = (error as Error).message;
    const failedIn = this.state?.name ?? "none";
    if (this.state?.actions?.back) await this.run("back");
    // InvalidStateError at creation: the authenticator already holds a passkey of this account (the
    // options' excludeCredentials), which is no cancellation and wants its own explanation.
    const { name, code: reason } = error as { name?: string; code?: string };
    const code =
      name === "InvalidStateError" || reason === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED"
        ? "webauthn_credential_exists"
        : "webauthn_cancelled";
    this.fail(code, message, failedIn);
  }

  /**
   * Passkey autofill: a conditional request that the browser answers when the user picks a passkey in
   * the identifier field's suggestions. It is cancelled before any other action, fails silently, and is
   * renewed (with a fresh challenge) before the challenge expires.
   */
  private startAutofill(publicKey: { timeout?: number }): void {
    const state = this.state;
    const request = ++this.autofillCounter;
    this.autofillRequest = request;
    const current = () => this.autofillRequest === request && this.state === state && this.isConnected;
    void (async () => {
      if (!(await browserSupportsWebAuthnAutofill()) || !current()) return;
      try {
        const response = await startAuthentication({
          optionsJSON: publicKey as never,
          useBrowserAutofill: true,
          verifyBrowserAutofillInput: false,
        });
        if (!current()) return;
        this.autofillRequest = 0;
        await this.run("webauthn_verify_assertion_response", { assertion_response: response });
      } catch {
        // Cancelled or failed: the page stays as it is.
        if (this.autofillRequest === request) this.autofillRequest = 0;
      }
    })();
    // A fresh challenge before this one expires, unless the user is typing (nothing is lost then).
    const lifetime = publicKey.timeout ?? 300_000;
    this.refreshTimer = setTimeout(
      () => {
        const field = (this.renderRoot as ParentNode).querySelector<HTMLInputElement>(
          "input[autocomplete='username webauthn']",
        );
        const typing = Boolean(field?.value) || (field !== null && field.matches(":focus"));
        if (current() && !this.busy && !typing) void this.start(this.flow);
      },
      Math.max(5_000, lifetime * 0.8),
    );
  }

  private cancelAutofill(): void {
    if (this.autofillRequest !== 0) WebAuthnAbortService.cancelCeremony();
    this.autofillRequest = 0;
  }

  protected override updated(changed: PropertyValues<this>): void {
    // After a step the user took, move the focus to the new page (its first field, else its headline).
    const name = this.state?.name ?? "";
    const moved = name !== this.focusedState;
    if (changed.has("state" as keyof SesameFlowElement)) this.focusedState = name;
    if (changed.has("state" as keyof SesameFlowElement) && moved && this.interacted && !this.busy) {
      const root = this.renderRoot as ParentNode;
      const target =
        root.querySelector<HTMLElement>("[aria-invalid='true']") ??
        root.querySelector<HTMLElement>(".sesame-container input:not([type=hidden])") ??
        root.querySelector<HTMLElement>(".sesame-headline");
      target?.focus();
    }
  }

  // ── Rendering ─────────────────────────────────────────────────────────────────────────────────────

  override render(): TemplateResult {
    const t = this.t;
    const state = this.state;
    const name = state?.name ?? "loading";
    const error = this.localError ?? (state && hiddenInputError(state)) ?? state?.error ?? undefined;
    return html`<section
      part="container"
      class="sesame-container"
      aria-busy=${this.busy ? "true" : "false"}
      aria-labelledby="${this.uid}-headline"
    >
      <h2 part="headline" class="sesame-headline" id="${this.uid}-headline" tabindex="-1">
        ${t(`state.${name}`)}
      </h2>
      <div role="alert" aria-live="assertive">
        ${error ? html`<p part="error" class="sesame-error">${errorText(t, error)}</p>` : nothing}
      </div>
      <div aria-live="polite" class="sesame-visually-hidden">${this.busy ? t("text.busy") : ""}</div>
      ${
        // New DOM after every step that succeeded: nothing typed carries over into another state's field
        // (or stays in the profile's password field); after a refusal the page keeps what was typed.
        state ? keyed(`${this.flow}:${state.name}:${this.steps}`, this.renderState(state)) : nothing
      }
    </section>`;
  }

  protected renderState(state: FlowState): TemplateResult | typeof nothing {
    const t = this.t;
    if (state.name === "success")
      return html`<p part="paragraph" class="sesame-paragraph">${t("text.signedIn")}</p>`;
    if (state.name === "account_deleted") {
      return html`<p part="paragraph" class="sesame-paragraph">${t("text.accountDeleted")}</p>`;
    }
    if (state.name === "error" || !state.actions) {
      return html`<button
        part="button primary-button"
        class="sesame-button"
        type="button"
        @click=${() => this.start(this.flow)}
      >
        ${t("text.tryAgain")}
      </button>`;
    }
    return html`${this.renderIntro(state)}${this.renderActions(state)}${this.renderFooter(state)}`;
  }

  /** Text above the actions for states that need it. */
  protected renderIntro(state: FlowState): TemplateResult | typeof nothing {
    const t = this.t;
    const payload = state.payload ?? {};
    if (state.name === "thirdparty" && typeof payload.redirect_url === "string") {
      // Shown while the browser leaves, and if it does not (a blocked navigation): the link still works.
      return html`<p part="paragraph" class="sesame-paragraph">${t("text.redirecting")}</p>
        <p part="paragraph" class="sesame-paragraph">
          <a part="link" class="sesame-link" href=${payload.redirect_url}>${t("text.continueToProvider")}</a>
        </p>`;
    }
    if (state.name === "onboarding_create_passkey") {
      // Sign-up's passkey step says what a passkey is; `skip` is offered where the tenant allows it.
      return html`<p part="paragraph" class="sesame-paragraph">${t("text.passkeyExplained")}</p>`;
    }
    if (state.name === "mfa_otp_secret_creation" && typeof payload.otp_secret === "string") {
      return html`<p part="paragraph" class="sesame-paragraph">
          ${t("text.otpScan", { secret: payload.otp_secret })}
        </p>
        ${
          typeof payload.otp_image_source === "string"
            ? html`<img
                part="otp-image"
                src=${payload.otp_image_source}
                alt=${t("text.otpImage")}
                width="180"
                height="180"
              />`
            : nothing
        }`;
    }
    return nothing;
  }

  /** Forms for actions with inputs, then buttons; automatic actions are never shown. */
  protected renderActions(state: FlowState): TemplateResult {
    const entries = Object.entries(state.actions ?? {}).filter(([name]) => !AUTOMATIC.has(name));
    const primary = entries.filter(([name]) => !SECONDARY.has(name) && !PROVIDER_ACTIONS.has(name));
    const secondary = entries.filter(([name]) => SECONDARY.has(name));
    const providers = entries.filter(([name]) => PROVIDER_ACTIONS.has(name));
    const forms = primary.filter(([, action]) => visibleInputs(action).length > 0);
    const buttons = primary.filter(([, action]) => visibleInputs(action).length === 0);
    const others = buttons.length + providers.length;
    return html`${forms.map(([name, action]) => this.renderForm(state, name, action))}
      ${forms.length > 0 && others > 0 ? html`<p part="divider" class="sesame-divider">${this.t("text.or")}</p>` : nothing}
      <div class="sesame-actions">
        ${buttons.map(([name]) => this.renderButton(name, forms.length === 0 && buttons[0]?.[0] === name))}
        ${providers.map(([name, action]) => this.renderProviderButtons(name, action))}
        ${secondary.map(([name]) => this.renderButton(name, false))}
      </div>`;
  }

  /**
   * One button per provider the action allows ("Sign in with Google"); the browser comes back to this
   * page (`redirect_to`), where `resume` goes on.
   */
  protected renderProviderButtons(name: string, action: FlowAction): TemplateResult[] {
    return (action.inputs?.provider?.allowed_values ?? []).map((provider) =>
      this.renderButton(
        name,
        false,
        {
          provider: provider.value,
          redirect_to: returnUrl(),
          ...(action.inputs?.code_verifier ? { code_verifier: this.providerVerifier } : {}),
        },
        this.t(`action.${name}`, { provider: provider.name }),
      ),
    );
  }

  protected renderButton(
    action: string,
    primary: boolean,
    inputs: Record<string, unknown> = {},
    label?: string,
  ) {
    return html`<button
      part="button ${primary ? "primary-button" : "secondary-button"}"
      class="sesame-button ${primary ? "" : "sesame-secondary"}"
      type="button"
      ?disabled=${this.busy}
      @click=${() => this.run(action, inputs)}
    >
      ${label ?? this.t(`action.${action}`)}
    </button>`;
  }

  protected renderForm(
    state: FlowState,
    name: string,
    action: FlowAction,
    hiddenValues: Record<string, string> = {},
  ) {
    const inputs = visibleInputs(action);
    const submit = (event: SubmitEvent) => {
      event.preventDefault();
      const form = event.currentTarget as HTMLFormElement;
      const values: Record<string, unknown> = { ...hiddenValues };
      for (const input of inputs) {
        const field = form.elements.namedItem(input.name) as HTMLInputElement | null;
        if (!field) continue;
        values[input.name] =
          input.type === "boolean"
            ? field.checked
            : input.type === "number"
              ? Number(field.value)
              : field.value;
      }
      void this.run(name, values);
    };
    return html`<form part="form" class="sesame-form" @submit=${submit} novalidate>
      ${inputs.map((input) => this.renderInput(state, name, input))}
      <button part="button primary-button" class="sesame-button" type="submit" ?disabled=${this.busy}>
        ${this.t(`action.${name}`)}
      </button>
    </form>`;
  }

  protected renderInput(state: FlowState, action: string, input: FlowInput): TemplateResult {
    const t = this.t;
    const id = `${this.uid}-${action}-${input.name}`;
    const error = input.error;
    const errorId = `${id}-error`;
    const type =
      input.type === "email"
        ? "email"
        : input.type === "password"
          ? "password"
          : input.type === "number"
            ? "number"
            : "text";
    return html`<label class="sesame-label" part="label" for=${id}>${t(`input.${input.name}`)}</label>
      <input
        part="input"
        class="sesame-input"
        id=${id}
        name=${input.name}
        type=${type}
        autocomplete=${autocompleteFor(state.name, input)}
        value=${this.hintFor(state, input) ?? nothing}
        inputmode=${input.name === "code" || input.name === "otp_code" ? "numeric" : nothing}
        ?required=${input.required ?? false}
        minlength=${input.min_length ?? nothing}
        maxlength=${input.max_length ?? nothing}
        aria-invalid=${error ? "true" : "false"}
        aria-describedby=${error ? errorId : nothing}
        spellcheck="false"
        autocapitalize="none"
      />
      ${
        error
          ? html`<p id=${errorId} class="sesame-input-error" part="input-error">${errorText(t, error)}</p>`
          : nothing
      }`;
  }

  /** The `login-hint` as the first value of the login's identifier field (the user may change it). */
  private hintFor(state: FlowState, input: FlowInput): string | undefined {
    if (!this.loginHint || state.name !== "login_init") return undefined;
    return ["email", "identifier", "username"].includes(input.name)
      ? this.loginHint.slice(0, 256)
      : undefined;
  }

  /** Below the actions: nothing by default (`<sesame-auth>` links login and registration). */
  protected renderFooter(_state: FlowState): TemplateResult | typeof nothing {
    return nothing;
  }
}

/** This page without the parameters a provider's return adds: where a provider sends the browser back. */
function returnUrl(): string {
  const url = new URL(window.location.href);
  for (const name of RETURN_PARAMS) url.searchParams.delete(name);
  return url.toString();
}

const RETURN_PARAMS = ["hanko_token", "error", "error_description"];
const storageKey = (api: string) => `sesame:${api}:thirdparty`;

/**
 * A fresh `code_verifier` (256 random bits, base64url): sent with the provider action and again with
 * `exchange_token`, so that only this tab can exchange the sign-in's token (as Hanko's elements do).
 */
function newVerifier(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** Keeps the `thirdparty` state (and the verifier) for this tab while the browser is at the provider. */
function saveProviderState(api: string, flow: FlowName, state: FlowState, verifier: string): void {
  try {
    sessionStorage.setItem(storageKey(api), JSON.stringify({ flow, state, verifier }));
  } catch {
    // Storage refused: the way back starts a token_exchange flow instead.
  }
}

interface ProviderReturn {
  token: string | undefined;
  /** The verifier sent when this tab left for the provider. */
  verifier: string | undefined;
  error: string | undefined;
  errorDescription: string | undefined;
  saved: { flow: FlowName; state: FlowState } | undefined;
}

/**
 * Reads (and removes from the address bar and storage) what a provider's return left: the one-time
 * token or the error, and the state kept for this tab. Undefined when the page is no such return.
 */
function takeProviderReturn(api: string): ProviderReturn | undefined {
  const params = new URL(window.location.href).searchParams;
  const token = params.get("hanko_token") || undefined;
  const error = params.get("error") || undefined;
  if (!token && !error) return undefined;
  history.replaceState(history.state, "", returnUrl());
  let saved: ProviderReturn["saved"];
  let verifier: string | undefined;
  try {
    const raw = sessionStorage.getItem(storageKey(api));
    sessionStorage.removeItem(storageKey(api));
    const kept = raw
      ? (JSON.parse(raw) as NonNullable<ProviderReturn["saved"]> & { verifier?: unknown })
      : undefined;
    saved = kept ? { flow: kept.flow, state: kept.state } : undefined;
    verifier = typeof kept?.verifier === "string" ? kept.verifier : undefined;
  } catch {
    saved = undefined;
  }
  return { token, verifier, error, errorDescription: params.get("error_description") || undefined, saved };
}

/**
 * The error of an input the page does not show (a provider button's `redirect_to`): its own message says
 * more than "check your input" about a field nobody can see.
 */
function hiddenInputError(state: FlowState): LocalError | undefined {
  if (state.error?.code !== "form_data_invalid_error") return undefined;
  for (const action of Object.values(state.actions ?? {})) {
    for (const input of Object.values(action.inputs ?? {})) {
      if (input.hidden && input.error) return { code: "hidden_input_error", message: input.error.message };
    }
  }
  return undefined;
}

function visibleInputs(action: FlowAction): FlowInput[] {
  return Object.values(action.inputs ?? {}).filter((input) => !input.hidden);
}

/** `username webauthn` on the login identifier, so the browser offers passkeys there (autofill). */
function autocompleteFor(state: string, input: FlowInput): string {
  if (state === "login_init" && (input.name === "email" || input.name === "identifier"))
    return "username webauthn";
  if (input.name === "email") return "email";
  if (input.name === "username" || input.name === "identifier") return "username";
  if (input.name === "code" || input.name === "otp_code") return "one-time-code";
  if (input.type === "password") return state === "login_password" ? "current-password" : "new-password";
  return "off";
}

async function capabilities(): Promise<Record<string, boolean>> {
  const webauthn = browserSupportsWebAuthn();
  return {
    webauthn_available: webauthn,
    webauthn_conditional_mediation_available: webauthn && (await browserSupportsWebAuthnAutofill()),
    webauthn_platform_authenticator_available: webauthn && (await platformAuthenticatorIsAvailable()),
  };
}
