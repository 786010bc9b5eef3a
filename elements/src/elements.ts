import { LitElement, html, nothing, type TemplateResult } from "lit";
import type { FlowAction, FlowState } from "./client";
import type { FlowName } from "./events";
import { SesameFlowElement } from "./flow-element";

/** `<sesame-login>`: the login flow. */
export class SesameLogin extends SesameFlowElement {
  protected initialFlow(): FlowName {
    return "login";
  }
}

/** `<sesame-registration>`: the registration flow. */
export class SesameRegistration extends SesameFlowElement {
  protected initialFlow(): FlowName {
    return "registration";
  }
}

/** `<sesame-auth mode="login|registration">`: login and registration in one, with a link between them. */
export class SesameAuth extends SesameFlowElement {
  static override properties = { ...SesameFlowElement.properties, mode: { type: String } };
  declare mode: string;

  protected initialFlow(): FlowName {
    return this.mode === "registration" ? "registration" : "login";
  }

  protected override renderFooter(state: FlowState): TemplateResult | typeof nothing {
    const t = this.t;
    if (state.name === "login_init") {
      return html`<p part="footer" class="sesame-footer">
        ${t("text.noAccount")}
        <button part="link" class="sesame-link" type="button" @click=${() => this.start("registration")}>
          ${t("text.signUp")}
        </button>
      </p>`;
    }
    if (state.name === "registration_init") {
      return html`<p part="footer" class="sesame-footer">
        ${t("text.haveAccount")}
        <button part="link" class="sesame-link" type="button" @click=${() => this.start("login")}>
          ${t("text.signIn")}
        </button>
      </p>`;
    }
    return nothing;
  }
}

interface ProfileEmail {
  id: string;
  address: string;
  is_verified: boolean;
  is_primary: boolean;
}
interface ProfileCredential {
  id: string;
  name?: string | null;
  created_at: string;
  last_used_at?: string;
}
interface ProfileSession {
  id: string;
  user_agent?: string;
  created_at: string;
  last_used: string;
  current: boolean;
}
interface ProfileUser {
  user_id: string;
  emails: ProfileEmail[];
  passkeys: ProfileCredential[];
  security_keys: ProfileCredential[];
  mfa_config?: { auth_app_set_up: boolean };
  username?: { username: string };
  identities?: { id: string; provider: string; identity_id: string }[];
}

/**
 * `<sesame-profile>`: the signed-in user's account (profile flow): email addresses, passkeys, security
 * keys, authenticator app, password, username, connected accounts (third-party and SSO providers),
 * sessions and account deletion, each shown only when the
 * flow offers its actions. Without a session the flow answers `unauthorized`, shown as an error.
 */
export class SesameProfile extends SesameFlowElement {
  static override properties = {
    ...SesameFlowElement.properties,
    renaming: { state: true },
    confirmingDelete: { state: true },
  };
  protected renaming: string | undefined;
  protected confirmingDelete = false;

  protected initialFlow(): FlowName {
    return "profile";
  }

  protected override renderState(state: FlowState): TemplateResult | typeof nothing {
    if (state.name !== "profile_init") return super.renderState(state);
    const payload = (state.payload ?? {}) as { user?: ProfileUser; sessions?: ProfileSession[] };
    const user = payload.user;
    if (!user) return super.renderState(state);
    const actions = state.actions ?? {};
    return html`${this.emails(user, actions)} ${this.passkeys(user, actions)}
    ${this.securityKeys(user, actions)} ${this.authenticatorApp(user, actions)}
    ${this.password(state, actions)} ${this.username(state, user, actions)}
    ${this.connectedAccounts(user, actions)} ${this.sessions(payload.sessions ?? [], actions)}
    ${this.deletion(actions)}`;
  }

  private section(id: string, title: string, body: TemplateResult): TemplateResult {
    return html`<section part="section" aria-labelledby="${this.uid}-${id}">
      <h3 part="subheadline" class="sesame-subheadline" id="${this.uid}-${id}">${title}</h3>
      ${body}
    </section>`;
  }

  private allowed(action: FlowAction | undefined, input: string, value: string): boolean {
    if (!action) return false;
    const values = action.inputs?.[input]?.allowed_values;
    return values === undefined || values.some((allowed) => allowed.value === value);
  }

  private emails(user: ProfileUser, actions: Record<string, FlowAction>) {
    const t = this.t;
    if (user.emails.length === 0 && !actions.email_create) return nothing;
    return this.section(
      "emails",
      t("text.emails"),
      html`<ul class="sesame-list" part="list">
          ${user.emails.map(
            (email) =>
              html`<li class="sesame-item" part="list-item">
                <span class="sesame-item-name">${email.address}</span>
                ${email.is_primary ? html`<span class="sesame-badge">${t("text.primary")}</span>` : nothing}
                ${email.is_verified ? nothing : html`<span class="sesame-badge">${t("text.unverified")}</span>`}
                ${
                  !email.is_primary && email.is_verified && actions.email_set_primary
                    ? this.small("email_set_primary", { email_id: email.id }, email.address)
                    : nothing
                }
                ${!email.is_verified && actions.email_verify ? this.small("email_verify", { email_id: email.id }, email.address) : nothing}
                ${
                  this.allowed(actions.email_delete, "email_id", email.id) && !email.is_primary
                    ? this.small("email_delete", { email_id: email.id }, email.address, true)
                    : nothing
                }
              </li>`,
          )}
        </ul>
        ${actions.email_create ? this.renderForm(this.state!, "email_create", actions.email_create) : nothing}`,
    );
  }

  /** A small button for one item; its accessible name says which item (`Delete, alice@example.com`). */
  private small(action: string, inputs: Record<string, string>, item: string, danger = false) {
    return html`<button
      part="button ${danger ? "danger-button" : "secondary-button"}"
      class="sesame-button sesame-small ${danger ? "sesame-danger" : "sesame-secondary"}"
      type="button"
      aria-label="${this.t(`action.${action}`)}: ${item}"
      ?disabled=${this.busy}
      @click=${() => this.run(action, inputs)}
    >
      ${this.t(`action.${action}`)}
    </button>`;
  }

  private credentialList(
    list: ProfileCredential[],
    actions: Record<string, FlowAction>,
    deleteAction: "webauthn_credential_delete" | "security_key_delete",
  ) {
    const t = this.t;
    const idInput = deleteAction === "security_key_delete" ? "security_key_id" : "passkey_id";
    return html`<ul class="sesame-list" part="list">
      ${list.map((credential) => {
        const name = credential.name || credential.id.slice(0, 12);
        return html`<li class="sesame-item" part="list-item" data-credential-id=${credential.id}>
          <span class="sesame-item-name">${name}</span>
          ${
            this.renaming === credential.id && actions.webauthn_credential_rename
              ? html`<form
                  class="sesame-inline-form"
                  part="form"
                  @submit=${(event: SubmitEvent) => {
                    event.preventDefault();
                    const field = (event.currentTarget as HTMLFormElement).elements.namedItem(
                      "passkey_name",
                    ) as HTMLInputElement;
                    this.renaming = undefined;
                    void this.run("webauthn_credential_rename", {
                      passkey_id: credential.id,
                      passkey_name: field.value,
                    });
                  }}
                >
                  <label class="sesame-visually-hidden" for="${this.uid}-rename-${credential.id}"
                    >${t("input.passkey_name")}</label
                  >
                  <input
                    part="input"
                    class="sesame-input"
                    id="${this.uid}-rename-${credential.id}"
                    name="passkey_name"
                    required
                    maxlength="255"
                    .value=${credential.name ?? ""}
                  />
                  <button part="button primary-button" class="sesame-button sesame-small" type="submit">
                    ${t("text.save")}
                  </button>
                  <button
                    part="button secondary-button"
                    class="sesame-button sesame-small sesame-secondary"
                    type="button"
                    @click=${() => (this.renaming = undefined)}
                  >
                    ${t("text.cancel")}
                  </button>
                </form>`
              : html`${
                  actions.webauthn_credential_rename
                    ? html`<button
                        part="button secondary-button"
                        class="sesame-button sesame-small sesame-secondary"
                        type="button"
                        aria-label="${t("action.webauthn_credential_rename")}: ${name}"
                        ?disabled=${this.busy}
                        @click=${() => (this.renaming = credential.id)}
                      >
                        ${t("action.webauthn_credential_rename")}
                      </button>`
                    : nothing
                }
                ${
                  this.allowed(actions[deleteAction], idInput, credential.id)
                    ? this.small(deleteAction, { [idInput]: credential.id }, name, true)
                    : nothing
                }`
          }
        </li>`;
      })}
    </ul>`;
  }

  private passkeys(user: ProfileUser, actions: Record<string, FlowAction>) {
    const t = this.t;
    if (user.passkeys.length === 0 && !actions.webauthn_credential_create) return nothing;
    return this.section(
      "passkeys",
      t("text.passkeys"),
      html`${user.passkeys.length === 0 ? html`<p class="sesame-paragraph">${t("text.noPasskeys")}</p>` : nothing}
      ${this.credentialList(user.passkeys, actions, "webauthn_credential_delete")}
      ${actions.webauthn_credential_create ? this.renderButton("webauthn_credential_create", false) : nothing}`,
    );
  }

  private securityKeys(user: ProfileUser, actions: Record<string, FlowAction>) {
    if (user.security_keys.length === 0 && !actions.security_key_create) return nothing;
    return this.section(
      "security-keys",
      this.t("text.securityKeys"),
      html`${this.credentialList(user.security_keys, actions, "security_key_delete")}
      ${actions.security_key_create ? this.renderButton("security_key_create", false) : nothing}`,
    );
  }

  private authenticatorApp(user: ProfileUser, actions: Record<string, FlowAction>) {
    const t = this.t;
    if (!actions.continue_to_otp_secret_creation && !actions.otp_secret_delete) return nothing;
    return this.section(
      "otp",
      t("text.authenticatorApp"),
      html`${user.mfa_config?.auth_app_set_up ? html`<p class="sesame-paragraph">${t("text.authenticatorAppSet")}</p>` : nothing}
        <div class="sesame-actions">
          ${actions.continue_to_otp_secret_creation ? this.renderButton("continue_to_otp_secret_creation", false) : nothing}
          ${actions.otp_secret_delete ? this.renderButton("otp_secret_delete", false) : nothing}
        </div>`,
    );
  }

  private password(state: FlowState, actions: Record<string, FlowAction>) {
    const forms = (["password_create", "password_update"] as const).filter((name) => actions[name]);
    if (forms.length === 0 && !actions.password_delete) return nothing;
    return this.section(
      "password",
      this.t("text.password"),
      html`${forms.map((name) => this.renderForm(state, name, actions[name]!))}
      ${actions.password_delete ? this.renderButton("password_delete", false) : nothing}`,
    );
  }

  private username(state: FlowState, user: ProfileUser, actions: Record<string, FlowAction>) {
    const forms = (["username_create", "username_update"] as const).filter((name) => actions[name]);
    if (forms.length === 0 && !actions.username_delete) return nothing;
    return this.section(
      "username",
      this.t("text.username"),
      html`${user.username ? html`<p class="sesame-paragraph">${user.username.username}</p>` : nothing}
      ${forms.map((name) => this.renderForm(state, name, actions[name]!))}
      ${actions.username_delete ? this.renderButton("username_delete", false) : nothing}`,
    );
  }

  /** The user's identities at providers, each removable, and a button per provider not connected yet. */
  private connectedAccounts(user: ProfileUser, actions: Record<string, FlowAction>) {
    const identities = user.identities ?? [];
    const connect = actions.connect_thirdparty_oauth_provider;
    if (identities.length === 0 && !connect) return nothing;
    return this.section(
      "identities",
      this.t("text.connectedAccounts"),
      html`<ul class="sesame-list" part="list">
          ${identities.map(
            (identity) =>
              html`<li class="sesame-item" part="list-item" data-identity-id=${identity.identity_id}>
                <span class="sesame-item-name">${identity.provider}</span>
                ${
                  actions.disconnect_thirdparty_oauth_provider
                    ? this.small(
                        "disconnect_thirdparty_oauth_provider",
                        { identity_id: identity.identity_id },
                        identity.provider,
                        true,
                      )
                    : nothing
                }
              </li>`,
          )}
        </ul>
        ${connect ? html`<div class="sesame-actions">${this.renderProviderButtons("connect_thirdparty_oauth_provider", connect)}</div>` : nothing}`,
    );
  }

  private sessions(sessions: ProfileSession[], actions: Record<string, FlowAction>) {
    const t = this.t;
    if (sessions.length === 0) return nothing;
    const date = (iso: string) => new Date(iso).toLocaleString(this.lang || this.config.lang || undefined);
    return this.section(
      "sessions",
      t("text.sessions"),
      html`<ul class="sesame-list" part="list">
        ${sessions.map((session) => {
          const name = session.user_agent ?? t("text.unknownDevice");
          return html`<li class="sesame-item" part="list-item">
            <span class="sesame-item-name"
              >${name}${session.current ? html` <span class="sesame-badge">(${t("text.currentSession")})</span>` : nothing}
              <br /><span class="sesame-badge"
                >${t("text.lastUsed", { date: date(session.last_used) })}</span
              ></span
            >
            ${
              !session.current && this.allowed(actions.session_delete, "session_id", session.id)
                ? this.small("session_delete", { session_id: session.id }, name, true)
                : nothing
            }
          </li>`;
        })}
      </ul>`,
    );
  }

  private deletion(actions: Record<string, FlowAction>) {
    const t = this.t;
    if (!actions.account_delete) return nothing;
    return this.section(
      "delete",
      t("text.dangerZone"),
      this.confirmingDelete
        ? html`<p class="sesame-paragraph">${t("text.confirmDelete")}</p>
            <div class="sesame-actions">
              <button
                part="button danger-button"
                class="sesame-button sesame-danger"
                type="button"
                ?disabled=${this.busy}
                @click=${() => {
                  this.confirmingDelete = false;
                  void this.run("account_delete");
                }}
              >
                ${t("text.confirm")}
              </button>
              <button
                part="button secondary-button"
                class="sesame-button sesame-secondary"
                type="button"
                @click=${() => (this.confirmingDelete = false)}
              >
                ${t("text.cancel")}
              </button>
            </div>`
        : html`<button
            part="button danger-button"
            class="sesame-button sesame-danger"
            type="button"
            @click=${() => (this.confirmingDelete = true)}
          >
            ${t("action.account_delete")}
          </button>`,
    );
  }
}

/** `<sesame-events>`: no UI; a place to hang listeners (the events reach it from `document`). */
export class SesameEvents extends LitElement {
  protected override createRenderRoot(): HTMLElement {
    return this;
  }
  override render() {
    return nothing;
  }
}
