// Paths of the service's own that more than one layer names: the OAuth server's mount point is
// served by the oauth module and labelled by the HTTP metrics, which sit below it.

/** Where oidc-provider is mounted (token, revocation, authorization, keys); OAUTH_ISSUER ends with it. */
export const OAUTH_PATH = '/oauth';

/** The OAuth server's metadata where RFC 8414 §3.1 puts it for an issuer ending in OAUTH_PATH. */
export const OAUTH_METADATA_PATH = `/.well-known/oauth-authorization-server${OAUTH_PATH}`;
