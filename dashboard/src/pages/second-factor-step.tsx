// The second step of signing in for a person with two-factor authentication: after the password
// (or a password reset), the code of their authenticator app or one of their recovery codes. The
// field takes focus when the step appears, and a wrong code is named at it.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorBox } from '../components/messages.tsx';
import { useT } from '../i18n/index.ts';
import { completeSecondFactor } from '../people.ts';

export function SecondFactorStep({
  challenge,
  onSignedIn,
  onRestart,
}: {
  challenge: string;
  /** After the session started (the tab is signed in by then). */
  onSignedIn?: () => void;
  /** Back to the password, for a challenge that expired or took too many wrong codes. */
  onRestart: () => void;
}) {
  const t = useT();
  const [code, setCode] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);

  async function submit(event: Event) {
    event.preventDefault();
    if (!code.trim()) return setError(t.secondFactor.enterCode);
    setBusy(true);
    setError(null);
    try {
      await completeSecondFactor(challenge, code.trim());
      onSignedIn?.();
    } catch (err) {
      setError(err);
      setBusy(false);
      input.current?.focus();
    }
  }

  return (
    <form id="second-factor-form" onSubmit={submit}>
      <h2>{t.secondFactor.heading}</h2>
      <label for="second-factor-code">{t.secondFactor.codeLabel}</label>
      <input
        id="second-factor-code"
        ref={input}
        autoComplete="one-time-code"
        inputMode="text"
        spellcheck={false}
        value={code}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'second-factor-error' : undefined}
        onInput={(e) => setCode(e.currentTarget.value)}
      />
      <div id="second-factor-error">
        <ErrorBox error={error} />
      </div>
      <button type="submit" disabled={busy}>
        {busy ? t.secondFactor.checking : t.secondFactor.verify}
      </button>
      <button type="button" class="secondary" onClick={onRestart}>
        {t.secondFactor.startAgain}
      </button>
    </form>
  );
}
