// The shell: sign-in until the tab has a credential (a person's session, a key or an OAuth
// token), then the navigation and the current page. The OAuth callback and the first run's
// setup page are answered signed in or not. Signed out, a page comes in a frame with the
// language picker (components/signed-out-page.tsx); signed in, the top bar has it.
import { useEffect, useState } from 'preact/hooks';
import { Link, linkTo } from './components/link.tsx';
import { revokeRefreshToken } from './oauth/token-endpoint.ts';
import { lazyPage } from './components/lazy-page.tsx';
import { OAuthCallbackPage } from './pages/oauth-callback.tsx';
import { SetupPage } from './pages/setup.tsx';
import { InvitePage } from './pages/invite.tsx';
import { ResetPasswordPage } from './pages/reset-password.tsx';
import { VerifyEmailPage } from './pages/verify-email.tsx';
import { WorkspaceSwitcher } from './components/workspace-switcher.tsx';
import { LanguageSwitcher } from './components/language-switcher.tsx';
import { SignedOutPage } from './components/signed-out-page.tsx';
import { useT } from './i18n/index.ts';
import { warmFormatters } from './i18n/locale.ts';
import { Loading } from './components/messages.tsx';
import { restoreCookieSession, signOutPerson } from './people.ts';
import { SignInPage } from './pages/sign-in.tsx';
import { usePageFocus, usePageTitle, skipToMain } from './page-focus.ts';
import { useRoute, type Route } from './router.ts';
import { currentCredential, signOut, useSession } from './session.ts';

// Every signed-in page is a chunk of its own (components/lazy-page.tsx): a signed-out visitor
// loads the sign-in page's code only.
const CodesPage = lazyPage('codes', () => import('./pages/codes.tsx').then((m) => m.CodesPage));
const NewCodePage = lazyPage('new code', () => import('./pages/code-editor.tsx').then((m) => m.NewCodePage));
const EditCodePage = lazyPage('code', () => import('./pages/code-editor.tsx').then((m) => m.EditCodePage));
const AnalyticsPage = lazyPage('analytics', () => import('./pages/analytics.tsx').then((m) => m.AnalyticsPage));
const BulkPage = lazyPage('bulk', () => import('./pages/bulk.tsx').then((m) => m.BulkPage));
const ImportPage = lazyPage('import', () => import('./pages/import.tsx').then((m) => m.ImportPage));
const ConnectedAppsPage = lazyPage('connected apps', () =>
  import('./pages/connected-apps.tsx').then((m) => m.ConnectedAppsPage),
);
const DomainsPage = lazyPage('domains', () => import('./pages/domains.tsx').then((m) => m.DomainsPage));
const MembersPage = lazyPage('members', () => import('./pages/members.tsx').then((m) => m.MembersPage));
const ProfilePage = lazyPage('profile', () => import('./pages/profile.tsx').then((m) => m.ProfilePage));
const AuditLogPage = lazyPage('audit log', () => import('./pages/audit-log.tsx').then((m) => m.AuditLogPage));

/**
 * Sign out of this tab; a person's session ends on the server, an OAuth sign-in's refresh token is
 * revoked (its access token just expires).
 */
function signOutOfTab(): void {
  const credential = currentCredential();
  if (credential?.kind === 'session') return void signOutPerson();
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
    case 'audit-log':
      return <AuditLogPage />;
    case 'members':
      return <MembersPage />;
    case 'profile':
      return <ProfilePage />;
    case 'oauth-callback':
      return <OAuthCallbackPage />;
    case 'setup':
      return <SetupPage />;
    case 'invite':
      return <InvitePage />;
    case 'reset-password':
      return <ResetPasswordPage />;
    case 'verify-email':
      return <VerifyEmailPage />;
    case 'not-found':
      return <NotFound path={route.path} />;
  }
}

/** What a tab without a credential shows: the setup, invitation, reset and verification pages, else the sign-in. */
function SignedOutRoute({ route, notice }: { route: Route; notice: string | null }) {
  switch (route.page) {
    case 'setup':
      return <SetupPage />;
    case 'invite':
      return <InvitePage />;
    case 'reset-password':
      return <ResetPasswordPage />;
    case 'verify-email':
      return <VerifyEmailPage />;
    default:
      return <SignInPage notice={notice} />;
  }
}

function NotFound({ path }: { path: string }) {
  const t = useT();
  usePageTitle(t.shell.notFound);
  return (
    <section>
      <h1>{t.shell.notFound}</h1>
      <p>{t.shell.noSuchPage(<code>{path}</code>, linkTo('/codes'))}</p>
    </section>
  );
}

/**
 * True while a tab opened signed out asks whether the browser still holds a person's session
 * cookie (a new tab, a restarted browser): the sign-in page shows only once it does not.
 */
function useCookieSessionRestore(signedOut: boolean): boolean {
  const [restoring, setRestoring] = useState(signedOut);
  useEffect(() => {
    if (!restoring) return;
    void restoreCookieSession().finally(() => setRestoring(false));
  }, []);
  return restoring;
}

export function App() {
  const t = useT();
  const session = useSession();
  const route = useRoute();
  usePageFocus(`${session.credential ? 'in' : 'out'} ${JSON.stringify(route)}`);
  const restoring = useCookieSessionRestore(session.credential === null);
  // Signed in, every page shows counts and dates: their formatters are built while it loads.
  const signedIn = session.credential !== null;
  useEffect(() => {
    if (signedIn) warmFormatters();
  }, [signedIn]);
  if (route.page === 'oauth-callback') return <OAuthCallbackPage />;
  if (!session.credential) {
    // The first run's setup has no session to look for: there is no user yet.
    if (restoring && route.page !== 'setup') return <Loading what={t.shell.yourSession} />;
    return (
      <SignedOutPage>
        <SignedOutRoute route={route} notice={session.notice} />
      </SignedOutPage>
    );
  }
  const section =
    route.page === 'analytics' || route.page === 'code-analytics'
      ? 'analytics'
      : route.page === 'bulk' ||
          route.page === 'import' ||
          route.page === 'connected-apps' ||
          route.page === 'domains' ||
          route.page === 'audit-log' ||
          route.page === 'members' ||
          route.page === 'profile'
        ? route.page
        : 'codes';
  return (
    <>
      <a class="skip-link" href="#main" onClick={skipToMain}>
        {t.shell.skipLink}
      </a>
      <header class="top-bar">
        <span class="brand">{t.shell.brand}</span>
        <nav aria-label={t.shell.mainNavigation}>
          {(
            [
              ['codes', '/codes'],
              ['analytics', '/analytics'],
              ['bulk', '/bulk'],
              ['import', '/import'],
              ['domains', '/domains'],
              ['connected-apps', '/apps'],
              ['audit-log', '/audit-log'],
              // People sign in with their email; a key or token acts for the workspace: no members or profile.
              ...(session.credential.kind === 'session'
                ? ([
                    ['members', '/members'],
                    ['profile', '/profile'],
                  ] as const)
                : []),
            ] as const
          ).map(([name, to]) => (
            <Link key={name} to={to} class={section === name ? 'active' : undefined}>
              {t.shell.nav[name]}
            </Link>
          ))}
        </nav>
        {session.credential.kind === 'session' && <WorkspaceSwitcher credential={session.credential} />}
        <LanguageSwitcher />
        <button type="button" class="secondary" onClick={signOutOfTab}>
          {t.shell.signOut}
        </button>
      </header>
      {/* Another workspace: every page loads its data again. */}
      <main id="main" key={session.credential.kind === 'session' ? session.credential.workspaceId : 'key'}>
        <Page route={route} />
      </main>
    </>
  );
}
