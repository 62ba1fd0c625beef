// A list of links (link in bio): a title, an optional description, the links in their order.
import type { LinksPage } from '../codes/index.ts';
import { esc, layout, linkButton, paragraphs } from './layout.ts';

export function renderLinks(page: LinksPage): string {
  const items = page.links.map((link) => `<li>${linkButton(link.label, link.url)}</li>`).join('');
  const description = page.description ? paragraphs(page.description) : '';
  return layout(page.title, `<h1>${esc(page.title)}</h1>${description}<ul>${items}</ul>`);
}
