// The sign-in page's OAuth option: the client id of a public client registered with this
// dashboard's redirect URI, remembered in this browser (it is not a secret); the tokens the
// sign-in gets are kept in the tab's sessionStorage only.
import { useState } from 'preact/hooks';
import { ErrorBox } from '../components/messages.tsx';
import { callbackUri, rememberedClientId, startOAuthSignIn } from './authorize.ts';

const CLIENT_ID = /^client_\w+$/;

export function OAuthSignInForm() {
  const [clientId, setClientId] = useState(rememberedClientId);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    const candidate = clientId.trim();
    if (!CLIENT_ID.test(candidate)) return setError('Enter the client id of an OAuth client (it starts with client_).');
    setBusy(true);
    setError(null);
    try {
      await startOAuthSignIn(candidate);
      // The browser is leaving for the consent page; the button stays disabled until it does.
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  return (
    <form class="oauth-sign-in" onSubmit={submit}>
      <h2>Sign in with OAuth</h2>
      <label for="oauth-client-id">OAuth client id</label>
      <input
        id="oauth-client-id"
        autoComplete="off"
        spellcheck={false}
        placeholder="client_…"
        value={clientId}
        onInput={(e) => setClientId(e.currentTarget.value)}
      />
      <p class="hint">
        A public client (<code>"token_endpoint_auth_method": "none"</code>) registered with{' '}
        <code>POST /v1/oauth-clients</code> and the redirect URI <code>{callbackUri()}</code>. You approve on the
        consent page with a key of your account; the dashboard then holds only a token, in this tab.
      </p>
      <ErrorBox error={error} />
      <button type="submit" class="secondary" disabled={busy}>
        {busy ? 'Opening the consent page…' : 'Sign in with OAuth'}
      </button>
    </form>
  );
}
