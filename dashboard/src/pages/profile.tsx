// The signed-in person's own things: their email address (verified or not, and a button that
// mails a verification link), their password (a change signs out their other sessions),
// their sessions (each can be signed out, this one marked) and two-factor authentication (set up
// with the QR code or the secret and a first code; recovery codes shown once with a copy button;
// turned off or the codes renewed with the password) and passkeys (./passkeys-section.tsx).
import { useEffect, useState } from 'preact/hooks';
import { CopyButton } from '../components/copy-button.tsx';
import { LabelledInputs } from '../components/labelled-inputs.tsx';
import { ErrorBox, Loading, Notice } from '../components/messages.tsx';
import { useForm } from '../components/use-form.ts';
import { formatDateTime } from '../format.ts';
import { useT } from '../i18n/index.ts';
import { usePageTitle } from '../page-focus.ts';
import { asPerson, signOutPerson } from '../people.ts';
import { currentCredential } from '../session.ts';
import { PasskeysSection } from './passkeys-section.tsx';

interface SessionRow {
  id: string;
  current: boolean;
  created_at: string;
  last_seen_at: string;
  user_agent: string | null;
}
interface SecondFactorStatus {
  enabled: boolean;
  recovery_codes_left: number;
}
interface Enrolment {
  secret: string;
  otpauth_uri: string;
  qr_svg: string;
}

/** The email address, whether it is verified, and the button that mails a verification link. */
function EmailSection() {
  const t = useT();
  const [me, setMe] = useState<{ email: string; email_verified: boolean } | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    asPerson<{ email: string; email_verified: boolean }>('GET', '/v1/users/me').then(setMe, setError);
  }, []);
  async function send() {
    setBusy(true);
    setError(null);
    try {
      setSentTo((await asPerson<{ email: string }>('POST', '/v1/users/me/email-verification')).email);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <section aria-labelledby="email-heading">
      <h2 id="email-heading">{t.profile.email}</h2>
      {me && (
        <p id="email-status">
          {me.email} · <strong>{me.email_verified ? t.profile.verified : t.profile.notVerified}</strong>
        </p>
      )}
      <ErrorBox error={error} />
      {sentTo && <Notice>{t.profile.linkSent(sentTo)}</Notice>}
      {me && !me.email_verified && (
        <button type="button" id="send-verification" disabled={busy} onClick={() => void send()}>
          {busy ? t.profile.sendingLink : t.profile.sendLink}
        </button>
      )}
    </section>
  );
}

function PasswordSection({ onChanged }: { onChanged: () => void }) {
  const t = useT();
  const form = useForm({ current_password: '', new_password: '' });
  const [done, setDone] = useState(false);
  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading">{t.profile.password}</h2>
      <form
        id="change-password-form"
        onSubmit={(event) => {
          event.preventDefault();
          setDone(false);
          void form.run(async () => {
            await asPerson('POST', '/v1/users/me/password', form.values);
            form.setValues({ current_password: '', new_password: '' });
            setDone(true);
            onChanged();
          });
        }}
      >
        <LabelledInputs
          idPrefix="profile"
          inputs={[
            ['current_password', t.profile.currentPassword, 'password', 'current-password'],
            ['new_password', t.profile.newPassword, 'password', 'new-password'],
          ]}
          values={form.values}
          problems={form.problems}
          onChange={form.onChange}
        />
        <ErrorBox error={form.error} />
        {done && <Notice>{t.profile.changed}</Notice>}
        <button type="submit" disabled={form.busy}>
          {form.busy ? t.profile.changing : t.profile.change}
        </button>
      </form>
    </section>
  );
}

function SessionsSection({ sessions, onChange }: { sessions: SessionRow[] | null; onChange: () => void }) {
  const t = useT();
  const [error, setError] = useState<unknown>(null);
  async function end(session: SessionRow) {
    setError(null);
    // This tab's own: signing it out is signing out.
    if (session.current) return signOutPerson();
    try {
      await asPerson('DELETE', `/v1/sessions/${session.id}`);
      onChange();
    } catch (err) {
      setError(err);
    }
  }
  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">{t.profile.sessions}</h2>
      <ErrorBox error={error} />
      {!sessions ? (
        <Loading what={t.profile.loadingSessions} />
      ) : (
        <table class="sessions">
          <caption class="visually-hidden">{t.profile.sessionsCaption}</caption>
          <thead>
            <tr>
              <th scope="col">{t.profile.columns.browser}</th>
              <th scope="col">{t.profile.columns.signedIn}</th>
              <th scope="col">{t.profile.columns.lastSeen}</th>
              <th scope="col">
                <span class="visually-hidden">{t.profile.columns.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.id} data-session={s.id}>
                <td>
                  {s.user_agent ?? t.profile.unknownBrowser}
                  {s.current && <strong>{t.profile.thisSession}</strong>}
                </td>
                <td>{formatDateTime(s.created_at)}</td>
                <td>{formatDateTime(s.last_seen_at)}</td>
                <td>
                  <button type="button" class="secondary" onClick={() => void end(s)}>
                    {t.profile.signOut(
                      (which) => (
                        <span class="visually-hidden">{which}</span>
                      ),
                      s.current,
                      s.id,
                    )}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Recovery codes, shown once, with a copy button for all of them. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const t = useT();
  return (
    <div class="recovery-codes">
      <Notice>{t.secondFactor.keepCodes}</Notice>
      <ul aria-label={t.secondFactor.recoveryCodes}>
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <CopyButton text={codes.join('\n')} what={t.secondFactor.theRecoveryCodes} />{' '}
      <button type="button" onClick={onDone}>
        {t.secondFactor.saved}
      </button>
    </div>
  );
}

function EnrolmentForm({ enrolment, onConfirmed }: { enrolment: Enrolment; onConfirmed: (codes: string[]) => void }) {
  const t = useT();
  const form = useForm({ code: '' });
  return (
    <form
      id="enable-second-factor-form"
      onSubmit={(event) => {
        event.preventDefault();
        void form.run(async () => {
          const answer = await asPerson<{ codes: string[] }>('POST', '/v1/users/me/second-factor/confirm', {
            code: form.values.code.trim(),
          });
          onConfirmed(answer.codes);
        });
      }}
    >
      <p>{t.secondFactor.scan}</p>
      <img
        class="second-factor-qr"
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qr_svg)}`}
        alt={t.secondFactor.qrCode}
        width={200}
        height={200}
      />
      <p>
        {t.secondFactor.secret} <code id="second-factor-secret">{enrolment.secret}</code>{' '}
        <CopyButton text={enrolment.secret} what={t.secondFactor.theSecret} />
      </p>
      <LabelledInputs
        idPrefix="enable"
        inputs={[['code', t.secondFactor.firstCode, 'text', 'one-time-code']]}
        values={form.values}
        problems={form.problems}
        onChange={form.onChange}
      />
      <ErrorBox error={form.error} />
      <button type="submit" disabled={form.busy}>
        {form.busy ? t.secondFactor.checking : t.secondFactor.turnOn}
      </button>
    </form>
  );
}

/** Turning off and renewing the codes: both need the password. */
function EnabledForm({ left, onOff, onCodes }: { left: number; onOff: () => void; onCodes: (c: string[]) => void }) {
  const t = useT();
  const form = useForm({ password: '' });
  return (
    <form id="second-factor-settings" onSubmit={(event) => event.preventDefault()}>
      <p>{t.secondFactor.on}</p>
      <p>{t.secondFactor.codesLeft(left)}</p>
      <LabelledInputs
        idPrefix="second-factor"
        inputs={[['password', t.secondFactor.passwordToChange, 'password', 'current-password']]}
        values={form.values}
        problems={form.problems}
        onChange={form.onChange}
      />
      <ErrorBox error={form.error} />
      <button
        type="button"
        class="secondary"
        disabled={form.busy}
        onClick={() =>
          void form.run(async () => {
            const answer = await asPerson<{ codes: string[] }>(
              'POST',
              '/v1/users/me/second-factor/recovery-codes',
              form.values,
            );
            onCodes(answer.codes);
          })
        }
      >
        {t.secondFactor.newCodes}
      </button>{' '}
      <button
        type="button"
        class="danger"
        disabled={form.busy}
        onClick={() =>
          void form.run(async () => {
            await asPerson('POST', '/v1/users/me/second-factor/disable', form.values);
            onOff();
          })
        }
      >
        {t.secondFactor.turnOff}
      </button>
    </form>
  );
}

function SecondFactorSection() {
  const t = useT();
  const [status, setStatus] = useState<SecondFactorStatus | null>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = () =>
    asPerson<SecondFactorStatus>('GET', '/v1/users/me/second-factor').then(setStatus, (err: unknown) => setError(err));
  useEffect(() => void load(), []);

  async function begin() {
    setError(null);
    try {
      setEnrolment(await asPerson<Enrolment>('POST', '/v1/users/me/second-factor'));
    } catch (err) {
      setError(err);
    }
  }

  function body() {
    if (codes)
      return (
        <RecoveryCodes
          codes={codes}
          onDone={() => {
            setCodes(null);
            void load();
          }}
        />
      );
    if (!status) return <Loading what={t.secondFactor.loading} />;
    if (status.enabled)
      return <EnabledForm left={status.recovery_codes_left} onOff={() => void load()} onCodes={setCodes} />;
    if (enrolment)
      return (
        <EnrolmentForm
          enrolment={enrolment}
          onConfirmed={(c) => {
            setEnrolment(null);
            setCodes(c);
          }}
        />
      );
    return (
      <>
        <p>{t.secondFactor.off}</p>
        <button type="button" onClick={() => void begin()}>
          {t.secondFactor.setUp}
        </button>
      </>
    );
  }

  return (
    <section aria-labelledby="second-factor-heading">
      <h2 id="second-factor-heading">{t.secondFactor.heading}</h2>
      <ErrorBox error={error} />
      {body()}
    </section>
  );
}

export function ProfilePage() {
  const t = useT();
  usePageTitle(t.profile.title);
  const signedIn = currentCredential()?.kind === 'session';
  const [sessions, setSessions] = useState<SessionRow[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const loadSessions = () =>
    asPerson<{ data: SessionRow[] }>('GET', '/v1/sessions').then(
      (list) => setSessions(list.data),
      (err: unknown) => setError(err),
    );
  useEffect(() => void (signedIn && loadSessions()), []);

  if (!signedIn)
    return (
      <section>
        <h1>{t.profile.title}</h1>
        <p>{t.profile.forPeopleOnly}</p>
      </section>
    );
  return (
    <section class="profile">
      <h1>{t.profile.title}</h1>
      <ErrorBox error={error} />
      <EmailSection />
      <PasswordSection onChanged={() => void loadSessions()} />
      <SessionsSection sessions={sessions} onChange={() => void loadSessions()} />
      <SecondFactorSection />
      <PasskeysSection />
    </section>
  );
}
