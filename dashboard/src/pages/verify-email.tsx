// The mailed link that verifies an email address: opening it confirms at once (the link is the
// proof, signed in or not) and says which address is verified, or why the link no longer works.
import { useEffect, useState } from 'preact/hooks';
import { ErrorBox, Notice } from '../components/messages.tsx';
import { useT } from '../i18n/index.ts';
import { usePageTitle } from '../page-focus.ts';
import { confirmEmailVerification } from '../people.ts';
import { href } from '../router.ts';
import { currentCredential } from '../session.ts';

/**
 * One confirmation per token and page load: the page may mount again (the tab's session found
 * after it rendered signed out), and a second request would meet the link already used.
 */
const confirmations = new Map<string, Promise<string>>();
function confirmOnce(token: string): Promise<string> {
  if (!confirmations.has(token)) confirmations.set(token, confirmEmailVerification(token));
  return confirmations.get(token)!;
}

export function VerifyEmailPage() {
  const t = useT();
  usePageTitle(t.verifyEmail.title);
  const [email, setEmail] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const token = new URLSearchParams(location.search).get('token') ?? '';
    confirmOnce(token).then(setEmail, setError);
  }, []);
  return (
    <section class="sign-in">
      <h1>{t.verifyEmail.title}</h1>
      {email === null && !error && (
        <p class="loading" aria-live="polite">
          {t.verifyEmail.working}
        </p>
      )}
      {email !== null && <Notice>{t.verifyEmail.done(email)}</Notice>}
      <ErrorBox error={error} />
      {currentCredential()?.kind === 'session' && <a href={href('/profile')}>{t.verifyEmail.toProfile}</a>}
    </section>
  );
}
