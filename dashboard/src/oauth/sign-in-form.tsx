// The sign-in page's OAuth option: the client id of a public client registered with this
// dashboard's redirect URI, remembered in this browser (it is not a secret); the tokens the
// sign-in gets are kept in the tab's sessionStorage only.
import { useState } from 'preact/hooks';
import { ErrorBox } from '../components/messages.tsx';
import { useT } from '../i18n/index.ts';
import { callbackUri, rememberedClientId, startOAuthSignIn } from './authorize.ts';

const CLIENT_ID = /^client_\w+$/;
/** What a client id looks like: the same in every language. */
const CLIENT_ID_SHAPE = 'client_…';

export function OAuthSignInForm() {
  const t = useT().oauth.form;
  const [clientId, setClientId] = useState(rememberedClientId);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    const candidate = clientId.trim();
    if (!CLIENT_ID.test(candidate)) return setError(t.badClientId);
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
      <h2>{t.title}</h2>
      <label for="oauth-client-id">{t.clientId}</label>
      <input
        id="oauth-client-id"
        autoComplete="off"
        spellcheck={false}
        placeholder={CLIENT_ID_SHAPE}
        value={clientId}
        onInput={(e) => setClientId(e.currentTarget.value)}
      />
      <p class="hint">
        {t.hint(
          (text) => (
            <code>{text}</code>
          ),
          callbackUri(),
        )}
      </p>
      <ErrorBox error={error} />
      <button type="submit" class="secondary" disabled={busy}>
        {busy ? t.opening : t.submit}
      </button>
    </form>
  );
}
