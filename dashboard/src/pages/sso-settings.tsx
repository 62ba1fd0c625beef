// A workspace's single sign-on, for its owners (the members page shows it to them only): the
// OpenID Connect provider, the email domains it covers and the role of people who join through
// it. The client secret is write-only: the server keeps it and never answers it.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../graphql.ts';
import { ErrorBox, Loading, Notice } from '../components/messages.tsx';
import { asPerson } from '../people.ts';
import { useT } from '../i18n/index.ts';

const SSO_ROLES = ['admin', 'editor', 'viewer'] as const;

interface SsoSettings {
  issuer: string;
  client_id: string;
  domains: string[];
  default_role: string;
  enabled: boolean;
  redirect_uri: string;
}

const EMPTY = { issuer: '', client_id: '', client_secret: '', domains: '', default_role: 'viewer', enabled: true };

export function SsoSettingsSection({ workspaceId }: { workspaceId: string }) {
  const t = useT();
  const words = t.sso;
  const path = `/v1/workspaces/${workspaceId}/sso`;
  const [stored, setStored] = useState<SsoSettings | null | undefined>(undefined);
  const [form, setForm] = useState(EMPTY);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);

  function show(settings: SsoSettings | null) {
    setStored(settings);
    setForm(settings ? { ...settings, client_secret: '', domains: settings.domains.join(', ') } : { ...EMPTY });
  }

  useEffect(() => {
    asPerson<SsoSettings>('GET', path).then(show, (err: unknown) =>
      err instanceof ApiError && err.code === 'HTTP_404' ? show(null) : setError(err),
    );
  }, [path]);

  async function save(event: Event) {
    event.preventDefault();
    setError(null);
    setDone(null);
    const body = {
      issuer: form.issuer.trim(),
      client_id: form.client_id.trim(),
      ...(form.client_secret ? { client_secret: form.client_secret } : {}),
      domains: form.domains
        .split(',')
        .map((d) => d.trim())
        .filter(Boolean),
      default_role: form.default_role,
      enabled: form.enabled,
    };
    try {
      show(await asPerson<SsoSettings>('PUT', path, body));
      setDone(words.saved);
    } catch (err) {
      setError(err);
    }
  }

  async function remove() {
    setError(null);
    try {
      await asPerson('DELETE', path);
      show(null);
      setDone(words.removed);
    } catch (err) {
      setError(err);
    }
  }

  const field = (name: 'issuer' | 'client_id' | 'client_secret' | 'domains') => ({
    id: `sso-${name.replace('_', '-')}`,
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
          <input type="text" required autoComplete="off" {...field('client_id')} />
          <label for="sso-client-secret">{words.clientSecret}</label>
          <input type="password" autoComplete="new-password" required={!stored} {...field('client_secret')} />
          {stored && <p class="hint">{words.secretKept}</p>}
          <label for="sso-domains">{words.domains}</label>
          <input type="text" required placeholder="example.com" {...field('domains')} />
          <label for="sso-default-role">{words.defaultRole}</label>
          <select
            id="sso-default-role"
            value={form.default_role}
            onChange={(e) => setForm({ ...form, default_role: e.currentTarget.value })}
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
          {stored && <p class="hint">{words.redirectUri(stored.redirect_uri)}</p>}
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
