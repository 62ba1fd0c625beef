// oidc-provider 8 ships no types; this covers what the OAuth module uses of it.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type AdapterPayload = Record<string, unknown> & {
    grantId?: string;
    uid?: string;
    userCode?: string;
    consumed?: number;
  };

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface ClientLike {
    clientId: string;
    clientSecret?: string;
    [property: string]: unknown;
  }

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, string | undefined> & { client_id: string; scope?: string };
    session?: { accountId: string };
    grantId?: string;
    returnTo: string;
  }

  export interface Grant {
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    rejectResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  /** The library's per-request context (`ctx.oidc`); its prototype is shared by every request. */
  export interface OIDCContext {
    ctx: { headers: Record<string, string | string[] | undefined> };
    route: string;
    params: Record<string, unknown>;
    /** Set by client authentication: the methods the presented credentials could be. */
    authorization: { methods?: string[] };
    client?: ClientLike;
    entity(key: string, value: unknown): void;
    urlFor(name: string, options?: Record<string, unknown>): string;
  }

  /** The context of the provider's own Koa app, as its middlewares (provider.use) see it. */
  export interface ProviderContext {
    oidc?: OIDCContext;
    status: number;
    body: unknown;
  }

  export interface Configuration {
    [option: string]: unknown;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    issuer: string;
    proxy: boolean;
    readonly Grant: new (properties: { accountId: string; clientId: string }) => Grant;
    readonly Client: {
      prototype: ClientLike & { compareClientSecret(actual: string): boolean | Promise<boolean> };
      find(id: string): Promise<ClientLike | undefined>;
    };
    readonly OIDCContext: { prototype: OIDCContext };
    /** A URL of the provider's, built on its issuer. */
    urlFor(name: string, options?: Record<string, unknown>): string;
    /** Middleware around every request of the provider's own Koa app. */
    use(middleware: (ctx: ProviderContext, next: () => Promise<void>) => Promise<void>): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    on(event: string, listener: (...args: never[]) => void): this;
  }

  export const errors: {
    InvalidTarget: new (description?: string) => Error;
    InvalidScope: new (description: string, scope: string) => Error;
    /** Its detail stays on the server (error_detail): the client reads only "client authentication failed". */
    InvalidClientAuth: new (detail: string) => Error;
  };
}
