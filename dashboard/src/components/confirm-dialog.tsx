// A modal question before something that cannot be undone. <dialog> with showModal() keeps
// focus inside and closes on Escape (which counts as "cancel").
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { useT } from '../i18n/index.ts';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children: ComponentChildren;
}

export function ConfirmDialog({
  open,
  title,
  confirmLabel,
  busy = false,
  onConfirm,
  onCancel,
  children,
}: ConfirmDialogProps) {
  const t = useT();
  const dialog = useRef<HTMLDialogElement>(null);
  // Opened and closed in the same render that changes `open`, before the page paints: with
  // useEffect (after paint) a page could show the answer to the dialog (a "not removed" error)
  // while the dialog still held the page modal, and typing meant for the page went nowhere.
  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} aria-labelledby="confirm-title" onCancel={onCancel}>
      <h2 id="confirm-title">{title}</h2>
      {children}
      <div class="dialog-actions">
        <button type="button" class="secondary" onClick={onCancel} disabled={busy}>
          {t.common.cancel}
        </button>
        <button type="button" class="danger" onClick={onConfirm} disabled={busy}>
          {busy ? t.common.working : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
