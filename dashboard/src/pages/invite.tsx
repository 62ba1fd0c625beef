// An invitation's link (/dashboard/invite?token=…, mailed or copied): shows the offer, then a
// signed-in person joins with one button, and anyone else gives a name and a password (and an
// email when the invitation names none) to become a member and be signed in.
import { useEffect, useState } from 'preact/hooks';
import { LabelledInputs, type InputSpec } from '../components/labelled-inputs.tsx';
import { ErrorBox, Loading } from '../components/messages.tsx';
import { ApiError } from '../graphql.ts';
import { useT } from '../i18n/index.ts';
import { formatDate } from '../i18n/locale.ts';
import { usePageTitle } from '../page-focus.ts';
import { acceptInvitation, previewInvitation, registerWithInvitation, type InvitationOffer } from '../people.ts';
import { replaceRoute } from '../router.ts';
import { currentCredential } from '../session.ts';

function NewMemberForm({ token, offer }: { token: string; offer: InvitationOffer }) {
  const t = useT();
  const [form, setForm] = useState({ email: '', display_name: '', password: '' });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const problems = error instanceof ApiError ? error.problems : [];
  const inputs: InputSpec[] = [
    ...(offer.email ? [] : [['email', t.account.email, 'email', 'username'] as const]),
    ['display_name', t.account.yourName, 'text', 'name'],
    ['password', t.account.newPassword, 'password', 'new-password'],
  ];

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { email, ...rest } = form;
      await registerWithInvitation({ token, ...rest, ...(offer.email ? {} : { email }) });
      replaceRoute('/codes');
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  return (
    <form id="invite-form" onSubmit={submit}>
      {offer.email && <p class="hint">{t.invite.joinAs(offer.email)}</p>}
      <LabelledInputs
        idPrefix="invite"
        inputs={inputs}
        values={form}
        problems={problems}
        onChange={(name, value) => setForm({ ...form, [name]: value })}
      />
      <ErrorBox error={error} />
      <button type="submit" disabled={busy}>
        {busy ? t.invite.joining : t.invite.submit}
      </button>
    </form>
  );
}

function JoinButton({ token }: { token: string }) {
  const t = useT();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  async function join() {
    setBusy(true);
    try {
      await acceptInvitation(token);
      replaceRoute('/codes');
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }
  return (
    <>
      <ErrorBox error={error} />
      <button type="button" disabled={busy} onClick={join}>
        {busy ? t.invite.joining : t.invite.submit}
      </button>
    </>
  );
}

export function InvitePage() {
  const t = useT();
  usePageTitle(t.invite.title);
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const [offer, setOffer] = useState<InvitationOffer | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (token) previewInvitation(token).then(setOffer, setError);
  }, [token]);
  const signedIn = currentCredential()?.kind === 'session';

  return (
    <section class="sign-in">
      <h1>{offer ? t.invite.join(offer.workspace_name) : t.invite.title}</h1>
      {!token || error ? (
        <ErrorBox error={error ?? t.invite.needsToken} />
      ) : !offer ? (
        <Loading what={t.invite.loading} />
      ) : (
        <>
          <p>
            {t.invite.invitedAs(
              <strong>{t.common.roles[offer.role] ?? offer.role}</strong>,
              formatDate(offer.expires_at),
            )}
          </p>
          {signedIn ? <JoinButton token={token} /> : <NewMemberForm token={token} offer={offer} />}
        </>
      )}
    </section>
  );
}
