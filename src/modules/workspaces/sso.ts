// Wires single sign-on together: its store, the owners' settings and the sign-in flow, with the
// SSRF-checked fetch towards the issuers owners configure.
import type { Knex } from 'knex';
import type { Config } from '../../config.ts';
import type { RecordAudit } from '../audit/index.ts';
import type { UsersService, UsersStore } from '../users/index.ts';
import type { TargetPolicy } from '../webhooks/index.ts';
import { issuerFetch } from './sso-issuer-fetch.ts';
import { createSsoSettings } from './sso-settings.ts';
import { createSsoSignIn } from './sso-sign-in.ts';
import { createSsoStore } from './sso-store.ts';
import type { MembershipsStore } from './store.ts';

/** Each request to an identity provider (discovery, keys, token) gets this long. */
const PROVIDER_TIMEOUT_MS = 5000;

export function createSso(options: {
  db: Knex;
  config: Pick<Config, 'nodeEnv' | 'publicBaseUrl' | 'allowPrivateNetworkTargets'>;
  memberships: MembershipsStore;
  users: UsersStore;
  sessions: Pick<UsersService, 'startSession' | 'countAttempt'>;
  audit: RecordAudit;
  now?: () => number;
}) {
  const { db, config, audit, now } = options;
  const policy: TargetPolicy = {
    allowPrivateNetwork: config.allowPrivateNetworkTargets,
    allowHttp: config.allowPrivateNetworkTargets || config.nodeEnv === 'development',
  };
  const store = createSsoStore(db);
  // Always /v1: the one address owners register with their provider, whatever version started it.
  const redirectUri = `${config.publicBaseUrl}/v1/sso/callback`;
  return {
    redirectUri,
    settings: createSsoSettings({ db, store, memberships: options.memberships, audit, policy, now }),
    signIn: createSsoSignIn({
      db,
      store,
      memberships: options.memberships,
      users: options.users,
      sessions: options.sessions,
      audit,
      redirectUri,
      fetch: issuerFetch({ policy, timeoutMs: PROVIDER_TIMEOUT_MS }),
      allowHttp: policy.allowHttp,
      now,
    }),
  };
}

export type Sso = ReturnType<typeof createSso>;
