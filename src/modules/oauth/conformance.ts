// Where oidc-provider 8, left to itself, departs from what a standard OAuth client expects of
// this server, and the hooks that hold it to the standards (test/api/oauth-conformance.test.ts):
// - it builds its endpoints' URLs from the request's Host, while its issuer is configured, so
//   discovery's issuer and endpoints disagreed whenever the two differ (RFC 8414 §3.3);
// - it takes client_secret_basic and client_secret_post for one another, while a client
//   registers one (RFC 7591 §2);
// - it introspects only the opaque tokens it stores, and our access tokens are JWTs;
// - its metadata lists only OpenID scopes, none of the API's.
import type Provider from 'oidc-provider';
import { errors, type OIDCContext } from 'oidc-provider';
import { SCOPES } from '../../shared/principal.ts';

/** RFC 7662 members of an access token, active, for the client asking; null: not active for it. */
export type IntrospectAccessToken = (token: string, clientId: string) => Promise<Record<string, unknown> | null>;

const SECRET_METHODS = new Set(['client_secret_basic', 'client_secret_post']);

/** How a token request presented the client's secret, if it did: in the Authorization header, or in the form. */
function presentedSecretMethod(oidc: OIDCContext): string | null {
  if (oidc.ctx.headers.authorization !== undefined) return 'client_secret_basic';
  return oidc.params.client_secret !== undefined ? 'client_secret_post' : null;
}

export function holdToStandards(provider: Provider, introspect: IntrospectAccessToken): void {
  const context = provider.OIDCContext.prototype;
  // From the issuer, whatever Host the request named: the issuer is the configured public base.
  context.urlFor = (name, options) => provider.urlFor(name, options);

  // Client authentication names the client (entity 'Client') after reading its credentials and
  // before checking them: the moment to refuse the method it did not register.
  const assign = context.entity;
  context.entity = function (this: OIDCContext, key: string, value: unknown) {
    const registered = (value as { clientAuthMethod?: string } | undefined)?.clientAuthMethod;
    const presented = key === 'Client' && this.authorization.methods ? presentedSecretMethod(this) : null;
    if (presented && registered && SECRET_METHODS.has(registered) && presented !== registered)
      throw new errors.InvalidClientAuth(`the client is registered for ${registered}: present its secret that way`);
    assign.call(this, key, value);
  };

  provider.use(async (ctx, next) => {
    await next();
    const { oidc } = ctx;
    if (oidc?.route === 'discovery' && ctx.status === 200) {
      const body = ctx.body as { scopes_supported: string[] };
      body.scopes_supported = [...new Set([...body.scopes_supported, ...SCOPES])];
    } else if (oidc?.route === 'introspection' && (ctx.body as { active?: boolean } | undefined)?.active === false) {
      // The library found no stored token of this value; it may be one of our JWT access tokens.
      const token = oidc.params.token;
      const answer = typeof token === 'string' && oidc.client ? await introspect(token, oidc.client.clientId) : null;
      if (answer) ctx.body = answer;
    }
  });
}
