// An invitation's link (/dashboard/invite?token=…, mailed or copied): shows the offer, then a
// signed-in person joins with one button, and anyone else gives a name and a password (and an
// email when the invitation names none) to become a member and be signed in.
import { useEffect, useState } from 'preact/hooks';
import { LabelledInputs, type InputSpec } from '../components/labelled-inputs.tsx';
import { ErrorBox, Loading } from '../components/messages.tsx';
import { useForm } from '../components/use-form.ts';
import { useT } from '../i18n/index.ts';
import { formatDate } from '../i18n/locale.ts';
import { usePageTitle } from '../page-focus.ts';
import { acceptInvitation, previewInvitation, registerWithInvitation, type InvitationOffer } from '../people.ts';
import { replaceRoute } from '../router.ts';
import { currentCredential } from '../session.ts';

function NewMemberForm({ token, offer }: { token: string; offer: InvitationOffer }) {
  const t = useT();
  const form = useForm({ email: '', display_name: '', password: '' });
  const inputs: InputSpec[] = [
    ...(offer.email ? [] : [['email', t.account.email, 'email', 'username'] as const]),
    ['display_name', t.account.yourName, 'text', 'name'],
    ['password', t.account.newPassword, 'password', 'new-password'],
  ];

  function submit(event: Event) {
    event.preventDefault();
    void form.run(async () => {
      const { email, ...rest } = form.values;
      await registerWithInvitation({ token, ...rest, ...(offer.email ? {} : { email }) });
      replaceRoute('/codes');
    });
  }

  return (
    <form id="invite-form" onSubmit={submit}>
      {offer.email && <p class="hint">{t.invite.joinAs(offer.email)}</p>}
      <LabelledInputs
        idPrefix="invite"
        inputs={inputs}
        values={form.values}
        problems={form.problems}
        onChange={form.onChange}
      />
      <ErrorBox error={form.error} />
      <button type="submit" disabled={form.busy}>
        {form.busy ? t.invite.joining : t.invite.submit}
      </button>
    </form>
  );
}

function JoinButton({ token }: { token: string }) {
  const t = useT();
  const form = useForm({});
  const join = () =>
    form.run(async () => {
      await acceptInvitation(token);
      replaceRoute('/codes');
    });
  return (
    <>
      <ErrorBox error={form.error} />
      <button type="button" disabled={form.busy} onClick={join}>
        {form.busy ? t.invite.joining : t.invite.submit}
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
