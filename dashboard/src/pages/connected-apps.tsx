// Connected apps: the OAuth clients this account consented to (its grants), and withdrawing
// one after a confirmation. Needs a credential with keys:manage, like the consent itself.
import { useState } from 'preact/hooks';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { ErrorBox, Loading, Notice } from '../components/messages.tsx';
import { formatDateTime } from '../format.ts';
import { ApiError, graphql } from '../graphql.ts';
import { useQuery } from '../use-query.ts';
import { usePageTitle } from '../page-focus.ts';
import { useT, type Messages } from '../i18n/index.ts';

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

const appName = (t: Messages, grant: Grant) => grant.clientName ?? t.apps.deleted(grant.clientId);

export function ConnectedAppsPage() {
  const t = useT();
  usePageTitle(t.apps.title);
  const { data, error, loading, reload } = useQuery<{ oauthGrants: Grant[] }>(GRANTS, {});
  const [asking, setAsking] = useState<Grant | null>(null);
  const [busy, setBusy] = useState(false);
  const [revokeError, setRevokeError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function revoke(grant: Grant) {
    setBusy(true);
    try {
      await graphql(REVOKE, { id: grant.id });
      setNotice(t.apps.revokedNotice(appName(t, grant)));
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
        <h1>{t.apps.title}</h1>
      </div>
      <p>{t.apps.intro}</p>
      {notice && <Notice>{notice}</Notice>}
      {forbidden ? (
        <p class="error-box" role="alert">
          {t.apps.forbidden}
        </p>
      ) : (
        <ErrorBox error={error} />
      )}
      <ErrorBox error={revokeError} title={t.apps.notRevoked} />
      {loading && !data && <Loading what={t.apps.loading} />}
      {data && grants.length === 0 && <p class="empty">{t.apps.none}</p>}
      {grants.length > 0 && (
        <table class="grants" aria-busy={loading}>
          <thead>
            <tr>
              <th>{t.apps.columns.app}</th>
              <th>{t.apps.columns.permissions}</th>
              <th>{t.apps.columns.key}</th>
              <th>{t.apps.columns.connected}</th>
              <th>{t.apps.columns.until}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {grants.map((grant) => (
              <tr key={grant.id} data-grant-id={grant.id}>
                <td>{appName(t, grant)}</td>
                <td>
                  {grant.scopes.map((scope) => (
                    <code key={scope}>{scope} </code>
                  ))}
                </td>
                <td>{grant.approvedByKeyId ? <code>{grant.approvedByKeyId}</code> : t.apps.notRecorded}</td>
                <td>{formatDateTime(grant.createdAt)}</td>
                <td>{grant.expiresAt ? formatDateTime(grant.expiresAt) : '—'}</td>
                <td>
                  <button type="button" class="danger" onClick={() => setAsking(grant)}>
                    {t.apps.revoke}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ConfirmDialog
        open={asking !== null}
        title={asking ? t.apps.confirmTitle(appName(t, asking)) : ''}
        confirmLabel={t.apps.confirm}
        busy={busy}
        onConfirm={() => asking && void revoke(asking)}
        onCancel={() => setAsking(null)}
      >
        <p>{t.apps.confirmText}</p>
      </ConfirmDialog>
    </section>
  );
}
