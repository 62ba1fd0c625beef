// The profile's passkeys: added under a name (the device asks for its screen lock or security
// key), listed with when each was added and last used, renamed in place, and deleted with the
// password, as turning two-factor authentication off is.
import { useEffect, useState } from 'preact/hooks';
import { LabelledInputs } from '../components/labelled-inputs.tsx';
import { ErrorBox, Loading, Notice } from '../components/messages.tsx';
import { useForm } from '../components/use-form.ts';
import { formatDateTime } from '../format.ts';
import { useT } from '../i18n/index.ts';
import { registerPasskey, type PasskeyRow } from '../passkeys.ts';
import { asPerson } from '../people.ts';

function AddPasskeyForm({ onAdded }: { onAdded: () => void }) {
  const t = useT();
  const form = useForm({ name: '' });
  const [added, setAdded] = useState(false);
  return (
    <form
      id="add-passkey-form"
      onSubmit={(event) => {
        event.preventDefault();
        setAdded(false);
        void form.run(async () => {
          await registerPasskey(form.values.name.trim() || t.passkeys.defaultName);
          form.setValues({ name: '' });
          setAdded(true);
          onAdded();
        });
      }}
    >
      <LabelledInputs
        idPrefix="passkey"
        inputs={[['name', t.passkeys.name, 'text', 'off']]}
        values={form.values}
        problems={form.problems}
        onChange={form.onChange}
      />
      <ErrorBox error={form.error} />
      {added && <Notice>{t.passkeys.added}</Notice>}
      <button type="submit" disabled={form.busy}>
        {form.busy ? t.passkeys.adding : t.passkeys.add}
      </button>
    </form>
  );
}

/** One passkey's row: its name (or the field renaming it) and its actions. */
function PasskeyItem({
  passkey,
  onRename,
  onDelete,
}: {
  passkey: PasskeyRow;
  onRename: (name: string) => Promise<boolean>;
  onDelete: () => void;
}) {
  const t = useT();
  const [editing, setEditing] = useState<string | null>(null);
  const inputId = `passkey-name-${passkey.id}`;
  return (
    <tr data-passkey={passkey.id}>
      <td>
        {editing === null ? (
          passkey.name
        ) : (
          <>
            <label for={inputId} class="visually-hidden">
              {t.passkeys.newName}
            </label>
            <input id={inputId} value={editing} maxLength={100} onInput={(e) => setEditing(e.currentTarget.value)} />
          </>
        )}
      </td>
      <td>{formatDateTime(passkey.created_at)}</td>
      <td>{passkey.last_used_at ? formatDateTime(passkey.last_used_at) : t.passkeys.neverUsed}</td>
      <td>
        {editing === null ? (
          <button type="button" class="secondary" onClick={() => setEditing(passkey.name)}>
            {t.passkeys.rename(
              (which) => (
                <span class="visually-hidden">{which}</span>
              ),
              passkey.name,
            )}
          </button>
        ) : (
          <button type="button" onClick={() => void onRename(editing).then((renamed) => renamed && setEditing(null))}>
            {t.passkeys.save}
          </button>
        )}{' '}
        <button type="button" class="danger" onClick={onDelete}>
          {t.passkeys.delete(
            (which) => (
              <span class="visually-hidden">{which}</span>
            ),
            passkey.name,
          )}
        </button>
      </td>
    </tr>
  );
}

export function PasskeysSection() {
  const t = useT();
  const [passkeys, setPasskeys] = useState<PasskeyRow[] | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const form = useForm({ password: '' });
  const load = () =>
    asPerson<{ data: PasskeyRow[] }>('GET', '/v1/users/me/passkeys').then(
      (list) => setPasskeys(list.data),
      (err: unknown) => setLoadError(err),
    );
  useEffect(() => void load(), []);

  /** True when renamed (the row's field closes); a failure stays in the form's error box. */
  async function rename(passkey: PasskeyRow, name: string): Promise<boolean> {
    let renamed = false;
    await form.run(async () => {
      await asPerson('PATCH', `/v1/users/me/passkeys/${passkey.id}`, { name });
      renamed = true;
      await load();
    });
    return renamed;
  }
  const remove = (passkey: PasskeyRow) =>
    void form.run(async () => {
      await asPerson('POST', `/v1/users/me/passkeys/${passkey.id}/delete`, form.values);
      form.setValues({ password: '' });
      await load();
    });

  return (
    <section aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading">{t.passkeys.heading}</h2>
      <p>{t.passkeys.intro}</p>
      <ErrorBox error={loadError} />
      {!passkeys ? (
        <Loading what={t.passkeys.loading} />
      ) : passkeys.length === 0 ? (
        <p>{t.passkeys.none}</p>
      ) : (
        <form id="passkeys-form" onSubmit={(event) => event.preventDefault()}>
          <table class="passkeys">
            <caption class="visually-hidden">{t.passkeys.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{t.passkeys.columns.name}</th>
                <th scope="col">{t.passkeys.columns.created}</th>
                <th scope="col">{t.passkeys.columns.lastUsed}</th>
                <th scope="col">
                  <span class="visually-hidden">{t.passkeys.columns.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {passkeys.map((p) => (
                <PasskeyItem key={p.id} passkey={p} onRename={(name) => rename(p, name)} onDelete={() => remove(p)} />
              ))}
            </tbody>
          </table>
          <LabelledInputs
            idPrefix="passkeys"
            inputs={[['password', t.passkeys.passwordToDelete, 'password', 'current-password']]}
            values={form.values}
            problems={form.problems}
            onChange={form.onChange}
          />
          <ErrorBox error={form.error} />
        </form>
      )}
      <AddPasskeyForm onAdded={() => void load()} />
    </section>
  );
}
