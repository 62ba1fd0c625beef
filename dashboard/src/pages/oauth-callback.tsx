// /dashboard/oauth/callback: the OAuth server sends the browser back here with a code (or an
// error). The code is exchanged once; then the address bar loses it and the codes page opens.
import { useEffect, useState } from 'preact/hooks';
import { Link } from '../components/link.tsx';
import { ErrorBox } from '../components/messages.tsx';
import { completeOAuthSignIn } from '../oauth/callback.ts';
import { replaceRoute } from '../router.ts';

export function OAuthCallbackPage() {
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    const query = new URLSearchParams(location.search);
    // Whatever happens, the code and state leave the address bar and the history.
    history.replaceState(null, '', location.pathname);
    completeOAuthSignIn(query).then(() => replaceRoute('/codes'), setError);
  }, []);

  return (
    <main class="sign-in">
      <h1>QR codes dashboard</h1>
      {error ? (
        <>
          <ErrorBox error={error} title="Sign-in failed." />
          <p>
            <Link to="/codes">Back to the sign-in page</Link>
          </p>
        </>
      ) : (
        <p class="loading" aria-live="polite">
          Finishing the OAuth sign-in…
        </p>
      )}
    </main>
  );
}
