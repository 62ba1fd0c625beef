// A workspace's single sign-on, for its owners (the members page shows it to them only): the
// OpenID Connect provider, the email domains it covers and the role of people who join through
// it. The client secret is write-only: the server keeps it and never answers it. Through GraphQL,
// where a workspace without settings is null rather than a 404 the browser would log.
import { useEffect, useState } from 'preact/hooks';
import { graphql } from '../graphql.ts';
import { ErrorBox, Loading, Notice } from '../components/messages.tsx';
import { useT } from '../i18n/index.ts';

const SSO_ROLES = ['admin', 'editor', 'viewer'] as const;

interface SsoSettings {
  issuer: string;
  clientId: string;
  domains: string[];
  defaultRole: string;
  enabled: boolean;
  redirectUri: string;
}

const FIELDS = 'issuer clientId domains defaultRole enabled redirectUri';
const QUERY = `query($w: ID!) { workspaceSso(workspaceId: $w) { ${FIELDS} } }`;
const SET = `mutation($w: ID!, $i: SsoSettingsInput!) { setWorkspaceSso(workspaceId: $w, input: $i) { ${FIELDS} } }`;
const REMOVE = 'mutation($w: ID!) { removeWorkspaceSso(workspaceId: $w) }';

const EMPTY = { issuer: '', clientId: '', clientSecret: '', domains: '', defaultRole: 'viewer', enabled: true };

export function SsoSettingsSection({ workspaceId }: { workspaceId: string }) {
  const t = useT();
  const words = t.sso;
  const [stored, setStored] = useState<SsoSettings | null | undefined>(undefined);
  const [form, setForm] = useState(EMPTY);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);

  function show(settings: SsoSettings | null) {
    setStored(settings);
    if (!settings) return setForm({ ...EMPTY });
    const { issuer, clientId, defaultRole, enabled } = settings;
    setForm({ issuer, clientId, clientSecret: '', domains: settings.domains.join(', '), defaultRole, enabled });
  }

  useEffect(() => {
    graphql<{ workspaceSso: SsoSettings | null }>(QUERY, { w: workspaceId }).then(
      (answer) => show(answer.workspaceSso),
      setError,
    );
  }, [workspaceId]);

  async function save(event: Event) {
    event.preventDefault();
    setError(null);
    setDone(null);
    const input = {
      issuer: form.issuer.trim(),
      clientId: form.clientId.trim(),
      ...(form.clientSecret ? { clientSecret: form.clientSecret } : {}),
      domains: form.domains
        .split(',')
        .map((d) => d.trim())
        .filter(Boolean),
      defaultRole: form.defaultRole,
      enabled: form.enabled,
    };
    try {
      show((await graphql<{ setWorkspaceSso: SsoSettings }>(SET, { w: workspaceId, i: input })).setWorkspaceSso);
      setDone(words.saved);
    } catch (err) {
      setError(err);
    }
  }

  async function remove() {
    setError(null);
    try {
      await graphql(REMOVE, { w: workspaceId });
      show(null);
      setDone(words.removed);
    } catch (err) {
      setError(err);
    }
  }

  const field = (name: 'issuer' | 'clientId' | 'clientSecret' | 'domains') => ({
    id: `sso-${name.replace(/[A-Z]/, (c) => `-${c.toLowerCase()}`)}`,
    value: form[name],
    onInput: (e: { currentTarget: HTMLInputElement }) => setForm({ ...form, [name]: e.currentTarget.value }),
  });
  return (
    <section aria-labelledby="sso-heading">
      <h2 id="sso-heading">{words.heading}</h2>
      <p class="hint">{words.intro}</p>
      {stored === undefined && !error ? (
        <Loading what={words.loading} />
      ) : (
        <form id="sso-form" onSubmit={save}>
          <label for="sso-issuer">{words.issuer}</label>
          <input type="url" required placeholder="https://login.example.com/realms/staff" {...field('issuer')} />
          <label for="sso-client-id">{words.clientId}</label>
          <input type="text" required autoComplete="off" {...field('clientId')} />
          <label for="sso-client-secret">{words.clientSecret}</label>
          <input type="password" autoComplete="new-password" required={!stored} {...field('clientSecret')} />
          {stored && <p class="hint">{words.secretKept}</p>}
          <label for="sso-domains">{words.domains}</label>
          <input type="text" required placeholder="example.com" {...field('domains')} />
          <label for="sso-default-role">{words.defaultRole}</label>
          <select
            id="sso-default-role"
            value={form.defaultRole}
            onChange={(e) => setForm({ ...form, defaultRole: e.currentTarget.value })}
          >
            {SSO_ROLES.map((r) => (
              <option key={r} value={r}>
                {t.common.roles[r] ?? r}
              </option>
            ))}
          </select>
          <label>
            <input
              id="sso-enabled"
              type="checkbox"
              checked={form.enabled}
              onChange={(e) => setForm({ ...form, enabled: e.currentTarget.checked })}
            />{' '}
            {words.enabled}
          </label>
          {stored && <p class="hint">{words.redirectUri(stored.redirectUri)}</p>}
          <ErrorBox error={error} />
          {done && <Notice>{done}</Notice>}
          <button type="submit">{words.save}</button>
          {stored && (
            <button type="button" class="secondary" onClick={() => void remove()}>
              {words.remove}
            </button>
          )}
        </form>
      )}
    </section>
  );
}
