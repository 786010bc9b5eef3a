// oidc-provider 9 ships no TypeScript declarations: the little of it tests/helpers/oidc-peer.ts uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface Interaction {
    uid: string;
    prompt: { name: string };
    params: Record<string, unknown>;
    session?: { accountId?: string };
  }

  export interface Configuration {
    clients?: Record<string, unknown>[];
    jwks?: { keys: Record<string, unknown>[] };
    cookies?: { keys: string[] };
    claims?: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    pkce?: { required?: (ctx: unknown, client: unknown) => boolean };
    features?: Record<string, { enabled: boolean }>;
    interactions?: { url: (ctx: unknown, interaction: Interaction) => string };
    findAccount?: (
      ctx: unknown,
      id: string,
    ) => { accountId: string; claims: () => Record<string, unknown> } | undefined;
    ttl?: Record<string, number | ((...args: unknown[]) => number)>;
  }

  class Grant {
    constructor(properties: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  class ClientModel {
    redirectUriAllowed(value: string): boolean;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    Grant: typeof Grant;
    Client: typeof ClientModel;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
