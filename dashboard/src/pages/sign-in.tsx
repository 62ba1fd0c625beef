// Sign in by pasting an API key, or through OAuth (../oauth/sign-in-form.tsx). A key is tried
// with one small query before it is kept, and kept in this tab's sessionStorage only.
import { useState } from 'preact/hooks';
import { ErrorBox, Notice } from '../components/messages.tsx';
import { ApiError, graphql } from '../graphql.ts';
import { OAuthSignInForm } from '../oauth/sign-in-form.tsx';
import { signIn } from '../session.ts';

const PROBE = '{ codes(first: 1) { pageInfo { hasNextPage } } }';

function explain(error: unknown): string {
  if (!(error instanceof ApiError)) return String(error);
  if (error.code === 'UNAUTHORIZED')
    return (
      `This key was not accepted: ${error.message} Check that you pasted all of it (API keys start with qrk_) ` +
      'and that it is not revoked or expired.'
    );
  if (error.code === 'FORBIDDEN')
    return (
      `This key cannot list codes: ${error.message} The dashboard needs codes:read ` +
      '(and codes:write, analytics:read to change codes and see scans).'
    );
  return error.message;
}

export function SignInPage({ notice }: { notice: string | null }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    const candidate = key.trim();
    if (!candidate) return setError('Paste an API key first.');
    setBusy(true);
    setError(null);
    try {
      await graphql(PROBE, {}, { key: candidate });
      signIn({ kind: 'api-key', token: candidate });
    } catch (err) {
      setError(explain(err));
      setBusy(false);
    }
  }

  return (
    <main class="sign-in">
      <h1>QR codes dashboard</h1>
      {notice && <Notice>{notice}</Notice>}
      <form onSubmit={submit}>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          spellcheck={false}
          placeholder="qrk_…"
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
        />
        <p class="hint">
          Make one with <code>npm run cli -- keys create --account &lt;name&gt;</code> or <code>POST /v1/api-keys</code>
          . It is kept in this tab only and forgotten when the tab closes.
        </p>
        <ErrorBox error={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
      <p class="sign-in-or">or</p>
      <OAuthSignInForm />
    </main>
  );
}
