// What a screen reader and a keyboard user are told when the page changes without a reload: the
// tab's title names the page, focus moves to the new page's h1, and a polite live region (in
// index.html, so it exists before anything is put into it) says which page it is.
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import { currentMessages, useT } from './i18n/index.ts';

/**
 * Sets the tab's title, "Codes · QR dashboard" in the page's language, while the page shows:
 * in the commit that draws the page, before the heading's focus and announcement (a page loaded as a chunk of its own
 * draws its heading after the navigation's own render).
 */
export function usePageTitle(title: string): void {
  const full = useT().shell.pageTitle(title);
  useLayoutEffect(() => {
    document.title = full;
  }, [full]);
}

/** Focuses `main`'s h1 (and announces it) once it is there; pages that load first draw it later. */
function focusHeading(): () => void {
  const main = document.querySelector('main');
  const settle = (): boolean => {
    const heading = main?.querySelector('h1');
    if (!heading) return false;
    heading.tabIndex = -1;
    heading.focus();
    const announcer = document.getElementById('announcer');
    if (announcer) announcer.textContent = currentMessages().shell.pageAnnouncement(heading.textContent ?? '');
    return true;
  };
  if (!main || settle()) return () => undefined;
  const observer = new MutationObserver(() => settle() && observer.disconnect());
  observer.observe(main, { childList: true, subtree: true });
  return () => observer.disconnect();
}

/**
 * Moves focus to the new page's heading whenever `page` changes (a navigation, signing in or
 * out), but not on the first load: there the browser's own start, and so the skip link, come first.
 */
export function usePageFocus(page: string): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    return focusHeading();
  }, [page]);
}

/** The skip link's action: straight to the page's heading, without changing the URL. */
export function skipToMain(event: MouseEvent): void {
  event.preventDefault();
  const heading = document.querySelector<HTMLElement>('main h1') ?? document.querySelector('main');
  if (!heading) return;
  heading.tabIndex = -1;
  heading.focus();
}
