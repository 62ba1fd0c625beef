// A button that puts a text (a scan URL, a code's id) on the clipboard and says so. The visible
// word is short; what it copies is in the accessible name too, so several on a page differ.
import { useState } from 'preact/hooks';
import { useT } from '../i18n/index.ts';

export function CopyButton({ text, what }: { text: string; what: string }) {
  const t = useT();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      // No clipboard (an insecure page, a refused permission): the text stays visible to select.
      setState('failed');
    }
  }

  return (
    <button type="button" class="secondary copy" onClick={() => void copy()}>
      {state === 'copied' ? t.common.copied : state === 'failed' ? t.common.selectToCopy : t.common.copy}
      <span class="visually-hidden"> {what}</span>
    </button>
  );
}

/** A code's id where a developer looks for it, with its copy button. */
export function CodeId({ id }: { id: string }) {
  const t = useT();
  return (
    <p class="code-id hint">
      {t.common.id} <code>{id}</code> <CopyButton text={id} what={t.common.id} />
    </p>
  );
}
