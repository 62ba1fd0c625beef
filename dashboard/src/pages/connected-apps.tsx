// Connected apps: the OAuth clients this account consented to (its grants), and withdrawing
// one after a confirmation. Needs a credential with keys:manage, like the consent itself.
import { useState } from 'preact/hooks';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { ErrorBox, Loading, Notice } from '../components/messages.tsx';
import { formatDateTime } from '../format.ts';
import { ApiError, graphql } from '../graphql.ts';
import { useQuery } from '../use-query.ts';

const GRANTS = '{ oauthGrants { id clientId clientName scopes approvedByKeyId createdAt expiresAt } }';
const REVOKE = 'mutation Revoke($id: ID!) { revokeOAuthGrant(id: $id) { revokedId } }';

interface Grant {
  id: string;
  clientId: string;
  clientName: string | null;
  scopes: string[];
  approvedByKeyId: string | null;
  createdAt: string;
  expiresAt: string | null;
}

const appName = (grant: Grant) => grant.clientName ?? `${grant.clientId} (deleted)`;

export function ConnectedAppsPage() {
  const { data, error, loading, reload } = useQuery<{ oauthGrants: Grant[] }>(GRANTS, {});
  const [asking, setAsking] = useState<Grant | null>(null);
  const [busy, setBusy] = useState(false);
  const [revokeError, setRevokeError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function revoke(grant: Grant) {
    setBusy(true);
    try {
      await graphql(REVOKE, { id: grant.id });
      setNotice(`${appName(grant)} can no longer act for this account.`);
      reload();
    } catch (err) {
      setRevokeError(err);
    } finally {
      setBusy(false);
      setAsking(null);
    }
  }

  const forbidden = error instanceof ApiError && error.code === 'FORBIDDEN';
  const grants = data?.oauthGrants ?? [];
  return (
    <section>
      <div class="page-head">
        <h1>Connected apps</h1>
      </div>
      <p>
        Apps you let act for this account on the consent page. Revoke one and it loses access at once; it would have to
        ask you again.
      </p>
      {notice && <Notice>{notice}</Notice>}
      {forbidden ? (
        <p class="error-box" role="alert">
          Sign in with a key that has the keys:manage scope to see and revoke connected apps.
        </p>
      ) : (
        <ErrorBox error={error} />
      )}
      <ErrorBox error={revokeError} title="Not revoked:" />
      {loading && !data && <Loading what="connected apps" />}
      {data && grants.length === 0 && <p class="empty">No app is connected to this account.</p>}
      {grants.length > 0 && (
        <table class="grants" aria-busy={loading}>
          <thead>
            <tr>
              <th>App</th>
              <th>Permissions</th>
              <th>Approved with key</th>
              <th>Connected</th>
              <th>Until</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {grants.map((grant) => (
              <tr key={grant.id} data-grant-id={grant.id}>
                <td>{appName(grant)}</td>
                <td>
                  {grant.scopes.map((scope) => (
                    <code key={scope}>{scope} </code>
                  ))}
                </td>
                <td>{grant.approvedByKeyId ? <code>{grant.approvedByKeyId}</code> : 'not recorded'}</td>
                <td>{formatDateTime(grant.createdAt)}</td>
                <td>{grant.expiresAt ? formatDateTime(grant.expiresAt) : '—'}</td>
                <td>
                  <button type="button" class="danger" onClick={() => setAsking(grant)}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ConfirmDialog
        open={asking !== null}
        title={asking ? `Revoke ${appName(asking)}?` : ''}
        confirmLabel="Revoke access"
        busy={busy}
        onConfirm={() => asking && void revoke(asking)}
        onCancel={() => setAsking(null)}
      >
        <p>Its tokens stop working and it cannot refresh them. It can ask for access again, which you may refuse.</p>
      </ConfirmDialog>
    </section>
  );
}
