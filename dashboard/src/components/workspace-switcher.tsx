// The workspace a signed-in person works in, in the top bar when they have more than one: a
// change reloads every page's data for the other workspace (session.ts sends it as Qr-Workspace).
import { useT } from '../i18n/index.ts';
import { switchWorkspace, type Credential } from '../session.ts';

export function WorkspaceSwitcher({ credential }: { credential: Extract<Credential, { kind: 'session' }> }) {
  const t = useT();
  if (credential.workspaces.length < 2)
    return <span class="workspace-name">{credential.workspaces[0]?.name ?? ''}</span>;
  return (
    <label class="workspace-switcher">
      <span class="visually-hidden">{t.shell.workspace}</span>
      <select value={credential.workspaceId} onChange={(e) => switchWorkspace(e.currentTarget.value)}>
        {credential.workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name} ({t.common.roles[w.role] ?? w.role})
          </option>
        ))}
      </select>
    </label>
  );
}
