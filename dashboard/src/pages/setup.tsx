// First run: the setup link the server logs while it has no user (or `cli users create-owner`
// prints) opens this page; it creates the first owner with the link's token and signs them in.
import { useState } from 'preact/hooks';
import { LabelledInputs, type InputSpec } from '../components/labelled-inputs.tsx';
import { ErrorBox } from '../components/messages.tsx';
import { ApiError } from '../graphql.ts';
import { useT } from '../i18n/index.ts';
import { usePageTitle } from '../page-focus.ts';
import { completeSetup } from '../people.ts';
import { replaceRoute } from '../router.ts';

export function SetupPage() {
  const t = useT();
  usePageTitle(t.setup.title);
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const [form, setForm] = useState({ email: '', display_name: '', password: '', workspace_name: '' });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const problems = error instanceof ApiError ? error.problems : [];
  const inputs: InputSpec[] = [
    ['email', t.account.email, 'email', 'username'],
    ['display_name', t.account.yourName, 'text', 'name'],
    ['password', t.account.newPassword, 'password', 'new-password'],
    ['workspace_name', t.setup.workspaceName, 'text', 'organization'],
  ];

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const workspace = form.workspace_name.trim();
      await completeSetup({ token, ...form, workspace_name: workspace === '' ? undefined : workspace });
      replaceRoute('/codes');
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  return (
    <section class="sign-in">
      <h1>{t.setup.heading}</h1>
      {!token ? (
        <ErrorBox error={t.setup.needsToken} />
      ) : (
        <form id="setup-form" onSubmit={submit}>
          <p class="hint">{t.setup.intro}</p>
          <LabelledInputs
            idPrefix="setup"
            inputs={inputs}
            values={form}
            problems={problems}
            onChange={(name, value) => setForm({ ...form, [name]: value })}
          />
          <ErrorBox error={error} />
          <button type="submit" disabled={busy}>
            {busy ? t.setup.settingUp : t.setup.submit}
          </button>
        </form>
      )}
    </section>
  );
}
