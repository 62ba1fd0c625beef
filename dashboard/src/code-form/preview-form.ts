// A url code's social preview in the editor's form, and as GraphQL input. Empty fields are left
// out; with nothing left, the preview is `unset` (absent on create, null on update: it removes it).
export const PREVIEW_KEYS = ['title', 'description', 'imageUrl'] as const;
export type PreviewKey = (typeof PREVIEW_KEYS)[number];

export type PreviewForm = Record<PreviewKey, string>;

export const emptyPreview = (): PreviewForm => ({ title: '', description: '', imageUrl: '' });

export interface SavedPreview {
  preview: Record<PreviewKey, string | null> | null;
}

export const PREVIEW_FIELDS = `preview { ${PREVIEW_KEYS.join(' ')} }`;

export function previewFormOf(code: SavedPreview): PreviewForm {
  return Object.fromEntries(PREVIEW_KEYS.map((k) => [k, code.preview?.[k] ?? ''])) as PreviewForm;
}

/** The preview input field of a url code; `unset` when every field is empty. */
export function socialPreviewInput(form: PreviewForm, unset: null | undefined): Record<string, unknown> {
  const given = Object.fromEntries(PREVIEW_KEYS.map((k) => [k, form[k].trim()]).filter(([, v]) => v !== ''));
  const preview = Object.keys(given).length > 0 ? given : unset;
  return preview === undefined ? {} : { preview };
}
