import type { APIRequestContext } from "@playwright/test";
import { WebAuthnSoftwareAuthenticator } from "@/tests/helpers/webauthn-software-authenticator";

/** A Passkey API answer; `publicKey` goes straight to the authenticator, which checks what it needs. */
export interface ApiResult {
  status: number;
  json: { publicKey: never; token: string; title?: string[]; details?: string[] };
}

/**
 * Drives Passkey API ceremonies over HTTP with a software authenticator (for API-level e2e tests;
 * browser tests use Chromium's virtual authenticator instead).
 */
export class PasskeyClient {
  readonly authenticator = new WebAuthnSoftwareAuthenticator();

  constructor(
    private readonly request: APIRequestContext,
    private readonly tenantId: string,
    private readonly apiKey: string,
    /** The origin the authenticator reports: one of the tenant's origins. */
    readonly origin: string,
  ) {}

  url(base: string, path: string): string {
    return `${base}/passkey/${this.tenantId}${path}`;
  }

  async post(base: string, path: string, body?: unknown, withKey = false): Promise<ApiResult> {
    const res = await this.request.post(this.url(base, path), {
      headers: { "content-type": "application/json", ...(withKey ? { apikey: this.apiKey } : {}) },
      ...(body === undefined ? {} : { data: body }),
    });
    return { status: res.status(), json: await res.json() };
  }

  /** Registration: initialize on `initBase`, finalize on `finalBase` (two instances may share a database). */
  async register(userId: string, initBase: string, finalBase = initBase): Promise<string> {
    const init = await this.post(
      initBase,
      "/registration/initialize",
      { user_id: userId, username: userId },
      true,
    );
    if (init.status !== 200) throw new Error(`registration/initialize: ${JSON.stringify(init.json)}`);
    const credential = await this.authenticator.register(init.json.publicKey, { origin: this.origin });
    const fin = await this.post(finalBase, "/registration/finalize", credential);
    if (fin.status !== 200) throw new Error(`registration/finalize: ${JSON.stringify(fin.json)}`);
    return fin.json.token;
  }

  /** Discoverable login: initialize on `initBase`, finalize on `finalBase`. */
  async login(initBase: string, finalBase = initBase): Promise<ApiResult> {
    const init = await this.post(initBase, "/login/initialize");
    if (init.status !== 200) throw new Error(`login/initialize: ${JSON.stringify(init.json)}`);
    const assertion = await this.authenticator.login(init.json.publicKey, { origin: this.origin });
    return this.post(finalBase, "/login/finalize", assertion);
  }
}
