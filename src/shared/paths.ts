// Paths of the service's own that more than one layer names: the OAuth server's mount point is
// served by the oauth module and labelled by the HTTP metrics, which sit below it.

/** Where oidc-provider is mounted (token, revocation, authorization, keys); OAUTH_ISSUER ends with it. */
export const OAUTH_PATH = '/oauth';
