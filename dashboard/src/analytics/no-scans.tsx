// What an analytics page says when its range has no scans: what to do to get some.
import { linkTo } from '../components/link.tsx';
import { useT } from '../i18n/index.ts';

/** `what` in the page's language: "your codes", "this code". */
export function NoScansYet({ what }: { what: string }) {
  const t = useT();
  return <p class="empty no-scans">{t.analytics.noScans(what, linkTo('/codes'))}</p>;
}
