// The shell: sign-in until the tab has a credential (a key or an OAuth token), then the
// navigation and the current page. The OAuth callback is answered signed in or not.
import { Link } from './components/link.tsx';
import { revokeRefreshToken } from './oauth/token-endpoint.ts';
import { AnalyticsPage } from './pages/analytics.tsx';
import { BulkPage } from './pages/bulk.tsx';
import { EditCodePage, NewCodePage } from './pages/code-editor.tsx';
import { CodesPage } from './pages/codes.tsx';
import { ConnectedAppsPage } from './pages/connected-apps.tsx';
import { DomainsPage } from './pages/domains.tsx';
import { ImportPage } from './pages/import.tsx';
import { OAuthCallbackPage } from './pages/oauth-callback.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { useRoute, type Route } from './router.ts';
import { currentCredential, signOut, useSession } from './session.ts';

/** Sign out of this tab; an OAuth sign-in's refresh token is revoked too (its access token just expires). */
function signOutOfTab(): void {
  const credential = currentCredential();
  signOut();
  if (credential?.kind === 'oauth' && credential.refreshToken)
    void revokeRefreshToken(credential.clientId, credential.refreshToken);
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'codes':
      return <CodesPage />;
    case 'new-code':
      return <NewCodePage />;
    case 'code':
      return <EditCodePage key={route.id} id={route.id} />;
    case 'code-analytics':
      return <AnalyticsPage key={route.id} codeId={route.id} />;
    case 'analytics':
      return <AnalyticsPage />;
    case 'bulk':
      return <BulkPage />;
    case 'import':
      return <ImportPage />;
    case 'connected-apps':
      return <ConnectedAppsPage />;
    case 'domains':
      return <DomainsPage />;
    case 'oauth-callback':
      return <OAuthCallbackPage />;
    case 'not-found':
      return (
        <section>
          <h1>Not found</h1>
          <p>
            The dashboard has no page <code>{route.path}</code>. <Link to="/codes">Go to the codes</Link>.
          </p>
        </section>
      );
  }
}

export function App() {
  const session = useSession();
  const route = useRoute();
  if (route.page === 'oauth-callback') return <OAuthCallbackPage />;
  if (!session.credential) return <SignInPage notice={session.notice} />;
  const section =
    route.page === 'analytics' || route.page === 'code-analytics'
      ? 'analytics'
      : route.page === 'bulk' || route.page === 'import' || route.page === 'connected-apps' || route.page === 'domains'
        ? route.page
        : 'codes';
  return (
    <>
      <header class="top-bar">
        <span class="brand">QR codes</span>
        <nav aria-label="Main">
          {(
            [
              ['codes', '/codes', 'Codes'],
              ['analytics', '/analytics', 'Analytics'],
              ['bulk', '/bulk', 'Bulk upload'],
              ['import', '/import', 'Import'],
              ['domains', '/domains', 'Domains'],
              ['connected-apps', '/apps', 'Connected apps'],
            ] as const
          ).map(([name, to, label]) => (
            <Link key={name} to={to} class={section === name ? 'active' : undefined}>
              {label}
            </Link>
          ))}
        </nav>
        <button type="button" class="secondary" onClick={signOutOfTab}>
          Sign out
        </button>
      </header>
      <main>
        <Page route={route} />
      </main>
    </>
  );
}
