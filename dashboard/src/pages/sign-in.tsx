// Sign in with email and password or single sign-on (a person: ./password-sign-in.tsx), by
// pasting an API key, or through OAuth (../oauth/sign-in-form.tsx). A refused single sign-on comes
// back here with its reason. A key is tried with one small query before it is kept, and kept in
// this tab's sessionStorage only.
import { useState } from 'preact/hooks';
import { ErrorBox, Notice } from '../components/messages.tsx';
import { ApiError, graphql } from '../graphql.ts';
import { currentMessages, useT } from '../i18n/index.ts';
import { OAuthSignInForm } from '../oauth/sign-in-form.tsx';
import { PasswordSignInForm } from './password-sign-in.tsx';
import { signIn } from '../session.ts';
import { usePageTitle } from '../page-focus.ts';

const PROBE = '{ codes(first: 1) { pageInfo { hasNextPage } } }';
/** How every API key begins, in any language: the field's placeholder. */
const KEY_PREFIX = 'qrk_';

function explain(error: unknown): string {
  if (!(error instanceof ApiError)) return String(error);
  const t = currentMessages().signIn;
  if (error.code === 'UNAUTHORIZED') return t.keyNotAccepted(error.message);
  if (error.code === 'FORBIDDEN') return t.keyCannotList(error.message);
  return error.message;
}

export function SignInPage({ notice }: { notice: string | null }) {
  const t = useT();
  usePageTitle(t.signIn.title);
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A single sign-on that came back without a session says why (GET /v1/sso/callback).
  const [ssoError] = useState(() => new URLSearchParams(location.search).get('sso_error'));

  async function submit(event: Event) {
    event.preventDefault();
    const candidate = key.trim();
    if (!candidate) return setError(t.signIn.pasteKeyFirst);
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
    <section class="sign-in">
      <h1>{t.signIn.heading}</h1>
      {notice && <Notice>{notice}</Notice>}
      <ErrorBox error={ssoError && (t.signIn.ssoErrors[ssoError] ?? t.signIn.ssoErrors.unknown)} />
      <PasswordSignInForm />
      <p class="sign-in-or">{t.signIn.forDevelopers}</p>
      <form id="api-key-form" onSubmit={submit}>
        <label for="api-key">{t.signIn.apiKey}</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          spellcheck={false}
          placeholder={`${KEY_PREFIX}…`}
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
        />
        <p class="hint">
          {t.signIn.apiKeyHint((text) => (
            <code>{text}</code>
          ))}
        </p>
        <ErrorBox error={error} />
        <button type="submit" disabled={busy}>
          {busy ? t.signIn.checking : t.signIn.submit}
        </button>
      </form>
      <p class="sign-in-or">{t.signIn.or}</p>
      <OAuthSignInForm />
    </section>
  );
}
