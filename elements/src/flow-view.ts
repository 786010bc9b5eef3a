import { LitElement, html, nothing, unsafeCSS, type PropertyValues, type TemplateResult } from "lit";
import { keyed } from "lit/directives/keyed.js";
import type { FlowAction, FlowInput, FlowState } from "./client";
import { currentConfig, type ElementsConfig } from "./config";
import type { FlowName } from "./events";
import {
  AUTOMATIC,
  PROVIDER_ACTIONS,
  SECONDARY,
  autocompleteFor,
  hiddenInputError,
  visibleInputs,
  type LocalError,
} from "./flow-inputs";
import { errorText, translator, type Translate } from "./i18n";
import { newVerifier, returnUrl } from "./provider-return";
import { CSS } from "./styles";

let instances = 0;

/**
 * What a flow element shows: the current state's actions and inputs as forms and buttons, from the
 * state's own declaration (so a new action or input needs no new UI code), its errors, and the focus
 * after each step. What the element does (requests, ceremonies, the provider's way back) is
 * {@link SesameFlowElement}'s, which extends this.
 */
export abstract class FlowView extends LitElement {
  static override properties = {
    lang: { type: String, reflect: true },
    loginHint: { type: String, attribute: "login-hint" },
    state: { state: true },
    busy: { state: true },
    localError: { state: true },
  };

  declare lang: string;
  /** `login-hint`: the identifier the login's first step starts with (e.g. OpenID Connect's `login_hint`). */
  declare loginHint: string | undefined;
  protected state: FlowState | undefined;
  protected busy = false;
  protected localError: LocalError | undefined;
  protected flow: FlowName = "login";
  protected readonly uid = `sesame-${++instances}`;
  /** This tab's verifier for the next provider sign-in (kept with the `thirdparty` state while away). */
  protected readonly providerVerifier = newVerifier();
  /** Bumped by every step that succeeded: the page's DOM (and what was typed) starts afresh. */
  protected steps = 0;
  /** Whether the user took a step on this page (the focus moves only then). */
  protected interacted = false;
  private focusedState = "";

  /** Starts (or restarts) a flow. */
  protected abstract start(flow: FlowName): Promise<void>;
  /** Submits an action of the current state. */
  protected abstract run(action: string, inputs?: Record<string, unknown>): Promise<void>;

  protected get config(): ElementsConfig {
    const config = currentConfig();
    if (!config) throw new Error("Sesame elements: call register(apiUrl) before using the elements");
    return config;
  }

  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    const config = currentConfig();
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

  protected override updated(changed: PropertyValues<this>): void {
    // After a step the user took, move the focus to the new page (its first field, else its headline).
    const name = this.state?.name ?? "";
    const moved = name !== this.focusedState;
    if (changed.has("state" as keyof FlowView)) this.focusedState = name;
    if (changed.has("state" as keyof FlowView) && moved && this.interacted && !this.busy) {
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
