// Saves a file the API answers only with the tab's credential (a plain link cannot send it):
// fetched with the tab's credential, then handed to the browser through a blob: URL.
import { currentMessages } from '../i18n/index.ts';
import { authHeaders, currentCredential } from '../session.ts';

export async function downloadFile(path: string, filename: string): Promise<void> {
  const credential = currentCredential();
  if (!credential) throw new Error(currentMessages().common.signInFirst);
  const res = await fetch(path, { headers: authHeaders(credential) });
  if (!res.ok) {
    const problem = (await res.json().catch(() => null)) as { detail?: string } | null;
    throw new Error(problem?.detail ?? currentMessages().common.serverAnswered(res.status));
  }
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  // The download has taken the bytes once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
