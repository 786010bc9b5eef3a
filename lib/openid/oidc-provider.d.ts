// oidc-provider 9 ships no TypeScript declarations: the part Sesame uses (lib/openid and the test peer
// tests/helpers/oidc-peer.ts).
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface Interaction {
    uid: string;
    iat?: number;
    exp?: number;
    returnTo: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId?: string; uid?: string; cookie?: string };
    grantId?: string;
    lastSubmission?: Record<string, unknown>;
  }

  export interface Configuration {
    clients?: Record<string, unknown>[];
    jwks?: { keys: Record<string, unknown>[] };
    cookies?: Record<string, unknown>;
    claims?: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    pkce?: { required?: (ctx: unknown, client: unknown) => boolean };
    features?: Record<string, Record<string, unknown> & { enabled: boolean }>;
    interactions?: { url: (ctx: unknown, interaction: Interaction) => string; policy?: unknown };
    findAccount?: (
      ctx: KoaContextWithOIDC,
      id: string,
    ) =>
      | {
          accountId: string;
          claims: (...args: unknown[]) => Record<string, unknown> | Promise<Record<string, unknown>>;
        }
      | undefined
      | Promise<
          | {
              accountId: string;
              claims: (...args: unknown[]) => Record<string, unknown> | Promise<Record<string, unknown>>;
            }
          | undefined
        >;
    ttl?: Record<string, number | ((...args: never[]) => number)>;
    [key: string]: unknown;
  }

  /** Koa's context with `oidc`: only loosely typed here. */
  export interface KoaContextWithOIDC {
    oidc: {
      route: string;
      client?: ClientModel;
      session?: { accountId?: string; authTime?: number; jti?: string; uid?: string };
      params?: Record<string, unknown>;
      entities: Record<string, unknown>;
      [key: string]: unknown;
    };
    req: IncomingMessage;
    headers: Record<string, string | undefined>;
    [key: string]: unknown;
  }

  export class Grant {
    constructor(properties: { accountId: string; clientId: string });
    static find(id: string): Promise<Grant | undefined>;
    jti: string;
    accountId: string;
    clientId: string;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    getOIDCScope(): string;
    save(): Promise<string>;
    destroy(): Promise<void>;
  }

  export class ClientModel {
    clientId: string;
    clientSecret?: string;
    tokenEndpointAuthMethod: string;
    redirectUriAllowed(value: string): boolean;
    grantTypeAllowed(type: string): boolean;
    metadata(): Record<string, unknown>;
    static find(id: string): Promise<ClientModel | undefined>;
  }

  export class Check {
    constructor(
      reason: string,
      description: string,
      check: (ctx: KoaContextWithOIDC) => boolean | Promise<boolean>,
    );
    constructor(
      reason: string,
      description: string,
      error: string,
      check: (ctx: KoaContextWithOIDC) => boolean | Promise<boolean>,
    );
    static REQUEST_PROMPT: boolean;
    static NO_NEED_TO_PROMPT: boolean;
  }
  export class Prompt {
    constructor(options: { name: string; requestable?: boolean }, ...checks: Check[]);
    name: string;
    checks: { add(check: Check, index?: number): void };
  }
  export const interactionPolicy: {
    base(): Prompt[] & { get(name: string): Prompt | undefined };
    Check: typeof Check;
    Prompt: typeof Prompt;
  };

  export const errors: {
    InvalidGrant: new (description?: string) => Error;
    InvalidClientMetadata: new (description?: string) => Error;
    InvalidRequest: new (description?: string) => Error;
    InvalidTarget: new (description?: string) => Error;
    InvalidScope: new (description: string, scope: string) => Error;
    AccessDenied: new (description?: string) => Error;
    [name: string]: new (description?: string) => Error;
  };

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    /** The Koa context of the request being answered (oidc-provider's AsyncLocalStorage), if any. */
    static readonly ctx: object | undefined;
    issuer: string;
    proxy: boolean;
    Grant: typeof Grant;
    Client: typeof ClientModel;
    Session: { find(id: string): Promise<unknown> };
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: never[]) => void): void;
    /** Koa middleware before oidc-provider's routes. */
    use(middleware: (ctx: never, next: () => Promise<void>) => Promise<void>): void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
  }
}
