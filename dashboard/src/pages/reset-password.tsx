// "Forgot your password": without a token, the form that mails a reset link (the answer is the
// same whether an account has the email); with the link's token, the new password, which signs
// the person in (every other session of theirs ends), after their second factor's code if it is on.
import { useState } from 'preact/hooks';
import { LabelledInputs } from '../components/labelled-inputs.tsx';
import { ErrorBox, Notice } from '../components/messages.tsx';
import { useForm } from '../components/use-form.ts';
import { useT } from '../i18n/index.ts';
import { usePageTitle } from '../page-focus.ts';
import { requestPasswordReset, resetPassword, SecondFactorRequired } from '../people.ts';
import { replaceRoute } from '../router.ts';
import { SecondFactorStep } from './second-factor-step.tsx';

function RequestForm() {
  const t = useT();
  const form = useForm({ email: '' });
  const [sent, setSent] = useState(false);
  return (
    <form
      id="reset-request-form"
      onSubmit={(event) => {
        event.preventDefault();
        void form.run(async () => {
          await requestPasswordReset(form.values.email.trim());
          setSent(true);
        });
      }}
    >
      {sent && <Notice>{t.resetPassword.sent}</Notice>}
      <LabelledInputs
        idPrefix="reset"
        inputs={[['email', t.account.email, 'email', 'username']]}
        values={form.values}
        problems={form.problems}
        onChange={(name, value) => form.setValues({ ...form.values, [name]: value })}
      />
      <ErrorBox error={form.error} />
      <button type="submit" disabled={form.busy}>
        {form.busy ? t.resetPassword.sending : t.resetPassword.send}
      </button>
    </form>
  );
}

function NewPasswordForm({ token }: { token: string }) {
  const t = useT();
  const form = useForm({ password: '' });
  const [challenge, setChallenge] = useState<string | null>(null);
  if (challenge)
    return (
      <SecondFactorStep
        challenge={challenge}
        onSignedIn={() => replaceRoute('/codes')}
        // The new password is set: signing in with it starts afresh.
        onRestart={() => replaceRoute('/codes')}
      />
    );
  return (
    <form
      id="reset-form"
      onSubmit={(event) => {
        event.preventDefault();
        void form.run(async () => {
          try {
            await resetPassword(token, form.values.password);
            replaceRoute('/codes');
          } catch (err) {
            if (!(err instanceof SecondFactorRequired)) throw err;
            setChallenge(err.challenge);
          }
        });
      }}
    >
      <LabelledInputs
        idPrefix="reset"
        inputs={[['password', t.resetPassword.newPassword, 'password', 'new-password']]}
        values={form.values}
        problems={form.problems}
        onChange={(name, value) => form.setValues({ ...form.values, [name]: value })}
      />
      <ErrorBox error={form.error} />
      <button type="submit" disabled={form.busy}>
        {form.busy ? t.resetPassword.saving : t.resetPassword.submit}
      </button>
    </form>
  );
}

export function ResetPasswordPage() {
  const t = useT();
  usePageTitle(t.resetPassword.title);
  const token = new URLSearchParams(location.search).get('token');
  return (
    <section class="sign-in">
      <h1>{t.resetPassword.title}</h1>
      {token ? <NewPasswordForm token={token} /> : <RequestForm />}
    </section>
  );
}
