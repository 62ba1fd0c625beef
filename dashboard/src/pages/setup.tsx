// First run: the setup link the server logs while it has no user (or `cli users create-owner`
// prints) opens this page; it creates the first owner with the link's token and signs them in.
import { LabelledInputs, type InputSpec } from '../components/labelled-inputs.tsx';
import { ErrorBox } from '../components/messages.tsx';
import { useForm } from '../components/use-form.ts';
import { useT } from '../i18n/index.ts';
import { usePageTitle } from '../page-focus.ts';
import { completeSetup } from '../people.ts';
import { replaceRoute } from '../router.ts';

export function SetupPage() {
  const t = useT();
  usePageTitle(t.setup.title);
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const form = useForm({ email: '', display_name: '', password: '', workspace_name: '' });
  const inputs: InputSpec[] = [
    ['email', t.account.email, 'email', 'username'],
    ['display_name', t.account.yourName, 'text', 'name'],
    ['password', t.account.newPassword, 'password', 'new-password'],
    ['workspace_name', t.setup.workspaceName, 'text', 'organization'],
  ];

  function submit(event: Event) {
    event.preventDefault();
    void form.run(async () => {
      const workspace = form.values.workspace_name.trim();
      await completeSetup({ token, ...form.values, workspace_name: workspace === '' ? undefined : workspace });
      replaceRoute('/codes');
    });
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
            values={form.values}
            problems={form.problems}
            onChange={form.onChange}
          />
          <ErrorBox error={form.error} />
          <button type="submit" disabled={form.busy}>
            {form.busy ? t.setup.settingUp : t.setup.submit}
          </button>
        </form>
      )}
    </section>
  );
}
