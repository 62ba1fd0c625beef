// A small form's state: its values, its failure (and the fields the server named) and whether it
// is sending. The password reset, profile, setup and invitation forms.
import { useState } from 'preact/hooks';
import { ApiError } from '../graphql.ts';

export function useForm<T extends Record<string, string>>(initial: T) {
  const [values, setValues] = useState(initial);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  /** Runs the form's action; a failure is kept to show, and the form is usable again after. */
  async function run(action: () => Promise<void>): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const problems = error instanceof ApiError ? error.problems : [];
  const onChange = (name: string, value: string) => setValues({ ...values, [name]: value });
  return { values, setValues, error, busy, run, problems, onChange };
}
