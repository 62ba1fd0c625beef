// Text put into HTML we write ourselves (the scan route's pages, hosted pages): every user field
// goes through escapeHtml, in element content and in double- or single-quoted attributes alike.
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
