// The workspace's people, for a signed-in person: members with their role (owners and admins
// change roles and remove, the API's rules deciding), invitations by email or link (the link
// shown once, with a copy button) and the pending ones to revoke; for owners, single sign-on.
import { useEffect, useState } from 'preact/hooks';
import { ErrorBox, Loading, Notice } from '../components/messages.tsx';
import { usePageTitle } from '../page-focus.ts';
import { asPerson } from '../people.ts';
import { currentCredential } from '../session.ts';
import { formatDate } from '../format.ts';
import { useT } from '../i18n/index.ts';
import { SsoSettingsSection } from './sso-settings.tsx';

const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;

interface Member {
  user: { id: string; email: string; display_name: string };
  role: string;
}
interface Invitation {
  id: string;
  email: string | null;
  role: string;
  expires_at: string;
}

export function MembersPage() {
  const t = useT();
  const words = t.members;
  const roleName = (role: string) => t.common.roles[role] ?? role;
  usePageTitle(words.title);
  const credential = currentCredential();
  const workspace = credential?.kind === 'session' ? credential.workspaceId : null;
  const [members, setMembers] = useState<Member[] | null>(null);
  const [invitations, setInvitations] = useState<Invitation[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [link, setLink] = useState<string | null>(null);
  const [invite, setInvite] = useState({ email: '', role: 'viewer' });
  const base = `/v1/workspaces/${workspace}`;
  const isOwner =
    credential?.kind === 'session' && credential.workspaces.find((w) => w.id === workspace)?.role === 'owner';

  // Only the latest load's answers are shown: one started before a change may answer after it.
  const [loads] = useState({ latest: 0 });
  async function load() {
    const mine = ++loads.latest;
    try {
      const list = await asPerson<{ data: Member[] }>('GET', `${base}/members?limit=200`);
      // Editors and viewers may not see invitations (403): they just see none.
      const pending = await asPerson<{ data: Invitation[] }>('GET', `${base}/invitations`).catch(() => ({ data: [] }));
      if (mine !== loads.latest) return;
      setMembers(list.data);
      setInvitations(pending.data);
    } catch (err) {
      if (mine === loads.latest) setError(err);
    }
  }
  useEffect(() => void load(), [workspace]);

  async function act(action: () => Promise<unknown>) {
    setError(null);
    try {
      await action();
      await load();
    } catch (err) {
      setError(err);
    }
  }

  if (!workspace)
    return (
      <section>
        <h1>{words.title}</h1>
        <p>{words.forPeopleOnly}</p>
      </section>
    );
  return (
    <section>
      <h1>{words.title}</h1>
      <ErrorBox error={error} />
      {!members ? (
        <Loading what={words.loading} />
      ) : (
        <table class="members">
          <caption class="visually-hidden">{words.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{words.columns.name}</th>
              <th scope="col">{words.columns.email}</th>
              <th scope="col">{words.columns.role}</th>
              <th scope="col">
                <span class="visually-hidden">{words.columns.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.user.id} data-member={m.user.email}>
                <td>{m.user.display_name}</td>
                <td>{m.user.email}</td>
                <td>
                  <select
                    aria-label={words.roleOf(m.user.display_name)}
                    value={m.role}
                    onChange={(e) =>
                      act(() => asPerson('PATCH', `${base}/members/${m.user.id}`, { role: e.currentTarget.value }))
                    }
                  >
                    {ROLES.map((r) => (
                      <option key={r} value={r}>
                        {roleName(r)}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <button
                    type="button"
                    class="secondary"
                    onClick={() => act(() => asPerson('DELETE', `${base}/members/${m.user.id}`))}
                  >
                    {words.remove(m.user.display_name)}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h2>{words.invite}</h2>
      <form
        id="invite-member-form"
        onSubmit={(event) => {
          event.preventDefault();
          void act(async () => {
            const body = { role: invite.role, ...(invite.email.trim() ? { email: invite.email.trim() } : {}) };
            const made = await asPerson<{ link: string }>('POST', `${base}/invitations`, body);
            setLink(made.link);
          });
        }}
      >
        <label for="invite-email">{words.email}</label>
        <input
          id="invite-email"
          type="email"
          value={invite.email}
          onInput={(e) => setInvite({ ...invite, email: e.currentTarget.value })}
        />
        <label for="invite-role">{words.role}</label>
        <select
          id="invite-role"
          value={invite.role}
          onChange={(e) => setInvite({ ...invite, role: e.currentTarget.value })}
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {roleName(r)}
            </option>
          ))}
        </select>
        <button type="submit">{words.submit}</button>
      </form>
      {link && <Notice>{words.made(link)}</Notice>}
      {link && (
        <button type="button" class="secondary" onClick={() => void navigator.clipboard?.writeText(link)}>
          {words.copyLink}
        </button>
      )}

      {invitations.length > 0 && (
        <>
          <h2>{words.pending}</h2>
          <ul class="pending-invitations">
            {invitations.map((i) => (
              <li key={i.id}>
                {words.pendingAs(i.email ?? words.anyone, roleName(i.role), formatDate(i.expires_at))}{' '}
                <button
                  type="button"
                  class="secondary"
                  onClick={() => act(() => asPerson('DELETE', `${base}/invitations/${i.id}`))}
                >
                  {words.revoke(i.email ?? words.theLink)}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {isOwner && <SsoSettingsSection workspaceId={workspace} />}
    </section>
  );
}
