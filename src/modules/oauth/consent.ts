// The consent an account owner gives on the consent page, as rules: what an authorization
// request may ask (the scopes asked that its client is allowed), who may approve (an API key of
// the account holding keys:manage), what may be approved (a non-empty choice among those scopes,
// each held by the approving key), and the grant that results. The route (routes.ts) only reads
// the form, calls these and answers.
import type Provider from 'oidc-provider';
import type { AdapterPayload } from 'oidc-provider';
import { looksLikeApiKey } from '../../shared/api-key.ts';
import { DomainError } from '../../shared/errors.ts';
import { isScope, type Principal, type Scope } from '../../shared/principal.ts';
import { assertCanGrant } from '../accounts/index.ts';

/** OpenID scopes the library handles itself (refresh tokens come with the client's refresh_token grant). */
const OIDC_SCOPES = new Set(['openid', 'offline_access']);

/** What an authorization request asks of the account, as the consent page shows it. */
export interface ConsentRequest {
  clientId: string;
  clientName: string;
  /** Asked for and allowed to the client: what the owner may approve. */
  scopes: Scope[];
  /** Refresh tokens: access that outlasts this session. */
  offline: boolean;
  /** OpenID scopes asked for; granted with the approval. */
  oidcScopes: string[];
}

export interface Approval {
  grantId: string;
  accountId: string;
  scopes: Scope[];
}

export interface ConsentServiceDeps {
  server: { provider: Pick<Provider, 'Grant'>; resource: string };
  clientMetadata: (clientId: string) => Promise<AdapterPayload | undefined>;
  /** The principal of an API key, or null (accounts' authenticate). */
  authenticateKey: (key: string) => Promise<Principal | null>;
  /** Records which key approved a grant, so revoking the key ends it (grants.ts). */
  approvedBy: (grantId: string, keyId: string) => Promise<void>;
}

const listOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];

export function createConsentService({
  server: { provider, resource },
  clientMetadata,
  authenticateKey,
  approvedBy,
}: ConsentServiceDeps) {
  return {
    /** What the request of this client for these scopes (space-separated) asks; a 400 once its client is gone. */
    async request(params: { client_id: string; scope?: string }): Promise<ConsentRequest> {
      const client = await clientMetadata(params.client_id);
      if (!client) throw new DomainError('bad_request', 'The client of this authorization request no longer exists.');
      const allowed = new Set(String(client.allowed_scopes ?? '').split(' '));
      const asked = (params.scope ?? '').split(' ').filter((s) => s !== '');
      return {
        clientId: params.client_id,
        clientName: String(client.client_name),
        scopes: asked.filter(isScope).filter((scope) => allowed.has(scope)),
        offline: listOf(client.grant_types).includes('refresh_token'),
        oidcScopes: asked.filter((s) => OIDC_SCOPES.has(s)),
      };
    },

    /**
     * Approves `request` with the API key and the scopes the owner chose (form values, unchecked):
     * an unknown key is a 401, one without keys:manage a 403, no scope chosen a 422, a scope the
     * key lacks a 403. Saves the grant (the scopes left unchecked marked as declined, so the
     * library does not ask for them again) and records the approving key.
     */
    async approve(request: ConsentRequest, form: { apiKey: unknown; scopes: unknown }): Promise<Approval> {
      const key = typeof form.apiKey === 'string' ? form.apiKey.trim() : '';
      const principal = looksLikeApiKey(key) ? await authenticateKey(key) : null;
      if (!principal) throw new DomainError('unauthorized', 'That API key is unknown, revoked or expired.');
      if (!principal.scopes.has('keys:manage'))
        throw new DomainError('forbidden', 'Use a key with the keys:manage scope.');
      const approved = listOf(form.scopes).filter((scope): scope is Scope => request.scopes.includes(scope as Scope));
      if (approved.length === 0) throw new DomainError('validation_failed', 'Choose at least one permission, or deny.');
      assertCanGrant(principal, approved);
      const grant = new provider.Grant({ accountId: principal.accountId, clientId: request.clientId });
      grant.addResourceScope(resource, approved.join(' '));
      const declined = request.scopes.filter((scope) => !approved.includes(scope));
      if (declined.length > 0) grant.rejectResourceScope(resource, declined.join(' '));
      for (const scope of request.oidcScopes) grant.addOIDCScope(scope);
      const grantId = await grant.save();
      await approvedBy(grantId, principal.keyId);
      return { grantId, accountId: principal.accountId, scopes: approved };
    },
  };
}

export type ConsentService = ReturnType<typeof createConsentService>;
