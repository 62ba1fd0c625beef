// Deleting a code, after a confirmation: its scan URL stops working at once, for good.
import { useState } from 'preact/hooks';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { ErrorBox } from '../components/messages.tsx';
import { graphql } from '../graphql.ts';
import { useT } from '../i18n/index.ts';
import { navigate } from '../router.ts';

const DELETE = 'mutation Delete($id: ID!) { deleteCode(id: $id) { deletedId } }';

/** `title` is what a person calls the code (format.ts codeTitle). */
export function DeleteCode({ id, title, scanUrl }: { id: string; title: string; scanUrl: string | null }) {
  const t = useT().editor.delete;
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function remove() {
    setBusy(true);
    try {
      await graphql(DELETE, { id });
      navigate('/codes', t.deleted(title));
    } catch (err) {
      setError(err);
      setBusy(false);
      setAsking(false);
    }
  }

  return (
    <>
      <button type="button" class="danger" onClick={() => setAsking(true)}>
        {t.button}
      </button>
      <ErrorBox error={error} title={t.notDeleted} />
      <ConfirmDialog
        open={asking}
        title={t.confirmTitle(title)}
        confirmLabel={t.confirm}
        busy={busy}
        onConfirm={remove}
        onCancel={() => setAsking(false)}
      >
        <p>
          {scanUrl ? t.printedStop(<code>{scanUrl}</code>) : t.settingsDeleted} {t.cannotUndo}
        </p>
      </ConfirmDialog>
    </>
  );
}
