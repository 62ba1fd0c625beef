// A person signs in with email and password: the server sets its session cookie, and the tab
// keeps the CSRF token and the workspace it works in (../people.ts). The same answer for an
// unknown email and a wrong password, as the server gives it. With two-factor authentication on,
// the code is asked for next (./second-factor-step.tsx). A passkey signs in without either: only
// the typed email's passkeys are offered when there is one, else any the browser has for the site.
// "Sign in with SSO" sends the browser to the server with the email, which redirects it to the
// identity provider of the email's domain.
import { useState } from 'preact/hooks';
import { Link } from '../components/link.tsx';
import { ErrorBox } from '../components/messages.tsx';
import { useT } from '../i18n/index.ts';
import { signInWithPasskey } from '../passkeys.ts';
import { SecondFactorRequired, signInWithPassword } from '../people.ts';
import { SecondFactorStep } from './second-factor-step.tsx';

export function PasswordSignInForm() {
  const t = useT();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [challenge, setChallenge] = useState<string | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    if (!email.trim() || !password) return setError(t.signIn.enterEmailAndPassword);
    setBusy(true);
    setError(null);
    try {
      await signInWithPassword(email.trim(), password);
    } catch (err) {
      if (err instanceof SecondFactorRequired) setChallenge(err.challenge);
      else setError(err);
      setBusy(false);
    }
  }

  async function withPasskey() {
    setBusy(true);
    setError(null);
    try {
      await signInWithPasskey(email.trim());
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  /** Off to the identity provider of the email's domain; the server sends the browser back. */
  function signInWithSso() {
    if (!email.trim()) return setError(t.signIn.ssoEnterEmail);
    location.assign(`/v1/sso/start?email=${encodeURIComponent(email.trim())}`);
  }

  if (challenge)
    return (
      <SecondFactorStep
        challenge={challenge}
        onRestart={() => {
          setChallenge(null);
          setPassword('');
        }}
      />
    );
  return (
    <form id="password-form" onSubmit={submit}>
      <h2>{t.signIn.title}</h2>
      <label for="email">{t.account.email}</label>
      <input
        id="email"
        type="email"
        autoComplete="username"
        value={email}
        onInput={(e) => setEmail(e.currentTarget.value)}
      />
      <label for="password">{t.account.password}</label>
      <input
        id="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onInput={(e) => setPassword(e.currentTarget.value)}
      />
      <ErrorBox error={error} />
      <button type="submit" disabled={busy}>
        {busy ? t.signIn.signingIn : t.signIn.submit}
      </button>{' '}
      <button type="button" id="passkey-sign-in" class="secondary" disabled={busy} onClick={() => void withPasskey()}>
        {t.passkeys.signIn}
      </button>{' '}
      <button type="button" id="sso-sign-in" class="secondary" onClick={signInWithSso}>
        {t.signIn.sso}
      </button>
      <p class="hint">
        <Link to="/reset-password">{t.signIn.forgotPassword}</Link>
      </p>
    </form>
  );
}
