// /dashboard/oauth/callback: the OAuth server sends the browser back here with a code (or an
// error). The code is exchanged once; then the address bar loses it and the codes page opens.
import { useEffect, useState } from 'preact/hooks';
import { Link } from '../components/link.tsx';
import { ErrorBox } from '../components/messages.tsx';
import { completeOAuthSignIn } from '../oauth/callback.ts';
import { replaceRoute } from '../router.ts';
import { usePageTitle } from '../page-focus.ts';
import { useT } from '../i18n/index.ts';

export function OAuthCallbackPage() {
  const t = useT().oauth;
  usePageTitle(t.signingIn);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    const query = new URLSearchParams(location.search);
    // Whatever happens, the code and state leave the address bar and the history.
    history.replaceState(null, '', location.pathname);
    completeOAuthSignIn(query).then(() => replaceRoute('/codes'), setError);
  }, []);

  return (
    <main class="sign-in">
      <h1>{t.dashboard}</h1>
      {error ? (
        <>
          <ErrorBox error={error} title={t.failed} />
          <p>
            <Link to="/codes">{t.backToSignIn}</Link>
          </p>
        </>
      ) : (
        <p class="loading" aria-live="polite">
          {t.finishing}
        </p>
      )}
    </main>
  );
}
