import {
  WebAuthnAbortService,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser";
import { SesameRequestError, type FlowState } from "./client";
import { dispatch, listen, type FlowName, type SessionClaims } from "./events";
import { FlowView } from "./flow-view";
import { saveProviderState, takeProviderReturn } from "./provider-return";
import { capabilities, webauthnFailureCode } from "./webauthn";

/**
 * A custom element that drives one flow of the flow API: it starts the flow, submits the actions the page
 * (its {@link FlowView}) offers, takes each answer's state, comes back from a provider, and runs the
 * WebAuthn steps by itself: capabilities at the start, the passkey ceremony when a
 * state hands out options, and passkey autofill (conditional mediation) on the login page.
 */
export abstract class SesameFlowElement extends FlowView {
  /** The flow this element starts with. */
  protected abstract initialFlow(): FlowName;

  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** The autofill request under way (0: none); each request has its own number. */
  private autofillRequest = 0;
  private autofillCounter = 0;
  /** Bumped by every start: an answer to a request of an earlier flow is dropped. */
  private generation = 0;
  private stopListening: (() => void)[] = [];

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
  protected override async start(flow: FlowName): Promise<void> {
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
  protected override async run(action: string, inputs: Record<string, unknown> = {}): Promise<void> {
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
    this.fail(webauthnFailureCode(error), message, failedIn);
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
}
