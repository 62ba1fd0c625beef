// An in-dashboard link: a real href (open in a new tab works), navigated without a reload.
import type { ComponentChildren } from 'preact';
import type { Slot } from '../i18n/index.ts';
import { href, navigate } from '../router.ts';

interface LinkProps {
  to: string;
  class?: string;
  children: ComponentChildren;
}

export function Link({ to, class: className, children }: LinkProps) {
  const onClick = (event: MouseEvent) => {
    // Modified clicks keep the browser's meaning (new tab, new window, download).
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={href(to)} class={className} onClick={onClick}>
      {children}
    </a>
  );
}

/** A link to `to` around a catalogue's words, for a message with a link inside (i18n/locales/en.ts). */
export const linkTo =
  (to: string): Slot =>
  (text) => <Link to={to}>{text}</Link>;
