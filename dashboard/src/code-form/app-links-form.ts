// A url code's app links (an iOS and an Android target) and UTM fields in the editor's form, and
// as GraphQL input. Empty text fields are left out; with nothing left, the whole object is `unset`
// (absent on create, null on update: it removes what the code had).
export const OSES = ['ios', 'android'] as const;
export type Os = (typeof OSES)[number];
export const UTM_KEYS = ['utmSource', 'utmMedium', 'utmCampaign', 'utmTerm', 'utmContent'] as const;
export type UtmKey = (typeof UTM_KEYS)[number];

export interface AppTargetForm {
  link: string;
  storeUrl: string;
  openCustomScheme: boolean;
}

export interface LinksForm {
  appLinks: Record<Os, AppTargetForm>;
  utm: Record<UtmKey, string>;
}

const emptyTarget = (): AppTargetForm => ({ link: '', storeUrl: '', openCustomScheme: false });

export const emptyLinks = (): LinksForm => ({
  appLinks: { ios: emptyTarget(), android: emptyTarget() },
  utm: { utmSource: '', utmMedium: '', utmCampaign: '', utmTerm: '', utmContent: '' },
});

type SavedTarget = { link: string | null; storeUrl: string | null; openCustomScheme: boolean } | null;

export interface SavedLinks {
  appLinks: Record<Os, SavedTarget> | null;
  utm: Record<UtmKey, string | null> | null;
}

const TARGET_FIELDS = 'link storeUrl openCustomScheme';
export const LINKS_FIELDS =
  `appLinks { ios { ${TARGET_FIELDS} } android { ${TARGET_FIELDS} } } ` + `utm { ${UTM_KEYS.join(' ')} }`;

export function linksFormOf(code: SavedLinks): LinksForm {
  const target = (t: SavedTarget | undefined): AppTargetForm =>
    t ? { link: t.link ?? '', storeUrl: t.storeUrl ?? '', openCustomScheme: t.openCustomScheme } : emptyTarget();
  const empty = emptyLinks();
  return {
    appLinks: { ios: target(code.appLinks?.ios), android: target(code.appLinks?.android) },
    utm: Object.fromEntries(UTM_KEYS.map((k) => [k, code.utm?.[k] ?? empty.utm[k]])) as Record<UtmKey, string>,
  };
}

/** The appLinks and utm input fields of a url code; `unset` for an object with nothing in it. */
export function linksInput(form: LinksForm, unset: null | undefined): Record<string, unknown> {
  const targetInput = (t: AppTargetForm) => {
    const fields = {
      link: t.link.trim() || undefined,
      storeUrl: t.storeUrl.trim() || undefined,
      openCustomScheme: t.openCustomScheme || undefined,
    };
    const given = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    return Object.keys(given).length > 0 ? given : null;
  };
  const ios = targetInput(form.appLinks.ios);
  const android = targetInput(form.appLinks.android);
  const utm = Object.fromEntries(UTM_KEYS.map((k) => [k, form.utm[k].trim()]).filter(([, v]) => v !== ''));
  const fields = {
    appLinks: ios || android ? { ios, android } : unset,
    utm: Object.keys(utm).length > 0 ? utm : unset,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
