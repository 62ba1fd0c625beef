// The consent page's HTML: which client asks for which scopes, a field for an API key of the
// account (with keys:manage) and Approve / Deny. No script, no style, nothing loaded.
import type { Scope } from '../../shared/principal.ts';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const DESCRIPTIONS: Record<Scope, string> = {
  'codes:read': 'See your QR codes, their designs, images and routing rules',
  'codes:write': 'Create, change and delete your QR codes and their routing rules',
  'analytics:read': 'See scan analytics and raw scans, and follow scans live',
  'webhooks:read': 'See your webhook endpoints and their delivery logs',
  'webhooks:write': 'Create, change, test and delete your webhook endpoints',
  'keys:manage': 'Create, rotate and revoke your API keys and OAuth clients',
  'audit:read': 'See the audit log of who changed what in your account, and when',
};

export interface ConsentView {
  action: string;
  clientName: string;
  clientId: string;
  scopes: Scope[];
  /** Refresh tokens: access that outlasts this session. */
  offline: boolean;
  error?: string;
}

const OFFLINE = 'It also asks to keep this access after you leave (a refresh token, valid 14 days unless revoked).';

export function consentPage(view: ConsentView): string {
  const items = view.scopes
    .map(
      (scope) =>
        `<li><label><input type="checkbox" name="scope" value="${scope}" checked> <code>${scope}</code>: ` +
        `${escape(DESCRIPTIONS[scope])}</label></li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Authorize ${escape(view.clientName)}</title></head>
<body>
<h1>Authorize ${escape(view.clientName)}</h1>
<p>The application <strong>${escape(view.clientName)}</strong> (<code>${escape(view.clientId)}</code>)
asks to act for your account with these permissions:</p>
${view.error ? `<p role="alert"><strong>${escape(view.error)}</strong></p>` : ''}
<form method="post" action="${escape(view.action)}">
<ul>
${items || '<li>No permissions of this API.</li>'}
</ul>
${view.offline ? `<p>${OFFLINE}</p>` : ''}
<p><label>API key of your account with the <code>keys:manage</code> scope, to confirm it is yours:<br>
<input type="password" name="api_key" autocomplete="off" required></label></p>
<p><button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button></p>
</form>
</body></html>`;
}
