// Deleting a code, after a confirmation: its scan URL stops working at once, for good.
import { useState } from 'preact/hooks';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { ErrorBox } from '../components/messages.tsx';
import { graphql } from '../graphql.ts';
import { navigate } from '../router.ts';

const DELETE = 'mutation Delete($id: ID!) { deleteCode(id: $id) { deletedId } }';

export function DeleteCode({ id, scanUrl }: { id: string; scanUrl: string | null }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function remove() {
    setBusy(true);
    try {
      await graphql(DELETE, { id });
      navigate('/codes', `Deleted ${id}.`);
    } catch (err) {
      setError(err);
      setBusy(false);
      setAsking(false);
    }
  }

  return (
    <>
      <button type="button" class="danger" onClick={() => setAsking(true)}>
        Delete code
      </button>
      <ErrorBox error={error} title="Not deleted:" />
      <ConfirmDialog
        open={asking}
        title={`Delete ${id}?`}
        confirmLabel="Delete for good"
        busy={busy}
        onConfirm={remove}
        onCancel={() => setAsking(false)}
      >
        <p>
          {scanUrl ? (
            <>
              Printed copies stop working: <code>{scanUrl}</code> will answer “not found”, and its address is never
              given to another code.
            </>
          ) : (
            'The code and its settings are deleted.'
          )}{' '}
          This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
