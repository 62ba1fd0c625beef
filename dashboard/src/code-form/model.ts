// The create/edit form's state, and how it becomes GraphQL input. Fields hold what the inputs
// show (text, colors); '' or null means "the default", sent as absent on create and as null
// (which resets the field) on update.
import type { FieldProblem } from '../graphql.ts';
import { currentMessages } from '../i18n/index.ts';
import { tagNames } from '../tags.ts';
import { emptyLifecycle, lifecycleInput, type LifecycleForm } from './lifecycle-form.ts';
import { emptyLinks, linksInput, type LinksForm } from './app-links-form.ts';
import { emptyPreview, socialPreviewInput, type PreviewForm } from './preview-form.ts';
import { pageInput } from './page-form.ts';

export const CODE_TYPES = ['url', 'text', 'email', 'phone', 'sms', 'wifi', 'vcard', 'geo'] as const;
export const STYLES = ['square', 'dots', 'rounded', 'branded'] as const;
export const EYE_STYLES = ['square', 'rounded', 'circle'] as const;
export const LEVELS = ['L', 'M', 'Q', 'H'] as const;

/** What a new static code's content starts as, to edit rather than to write from nothing. */
const CONTENT_TEMPLATES: Record<string, unknown> = {
  email: { to: 'hello@example.com', subject: 'Hello' },
  phone: { number: '+49 30 1234567' },
  sms: { number: '+49 30 1234567', body: 'Hello' },
  wifi: { ssid: 'Guest', password: 'change me please', encryption: 'WPA' },
  vcard: { first_name: 'Ada', last_name: 'Lovelace', emails: ['ada@example.com'] },
  geo: { latitude: 52.520008, longitude: 13.404954 },
};

export interface GradientForm {
  type: 'linear' | 'radial';
  from: string;
  to: string;
  angle: number;
}

export interface DesignForm {
  style: string;
  fgColor: string;
  bgColor: string;
  /** '' = the style's default. */
  eyeStyle: string;
  /** null = the module color. */
  eyeColor: string | null;
  gradient: GradientForm | null;
  frame: 'none' | 'banner';
  frameText: string;
  margin: number;
  /** '' = automatic (M, or H with a logo). */
  errorCorrection: string;
  logoUrl: string;
  /** An uploaded image as the logo, in place of a URL ('' = none). */
  logoImageId: string;
}

export interface RuleForm {
  /** Stable identity for rendering while rules move. */
  key: string;
  condition: string;
  destination: string;
  /** Split rules only; kept as they are, so reordering keeps them whole. */
  weights: { destination: string; weight: number }[] | null;
}

export interface CodeForm {
  type: string;
  /** '' = no name (the list shows the content). */
  name: string;
  /** A new url code's custom slug; '' = a random one. */
  slug: string;
  /** A url code's own domain (hostname); '' = the service's. */
  domain: string;
  notes: string;
  /** Tag names, comma-separated as typed. */
  tags: string;
  /** The URL, the text of a text code, or the JSON of another static code's content. */
  content: string;
  design: DesignForm;
  routingEnabled: boolean;
  rules: RuleForm[];
  /** Status, expiry and scan limit (lifecycle-form.ts). */
  lifecycle: LifecycleForm;
  /** Url codes: app links and UTM fields. */
  links: LinksForm;
  /** Url codes: the social preview crawlers are shown (not the QR image's live preview). */
  socialPreview: PreviewForm;
  /** Url codes: the hosted page's JSON as typed; '' = none (page-form.ts). */
  page: string;
}

export const defaultDesign = (): DesignForm => ({
  style: 'square',
  fgColor: '#000000',
  bgColor: '#ffffff',
  eyeStyle: '',
  eyeColor: null,
  gradient: null,
  frame: 'none',
  frameText: '',
  margin: 4,
  errorCorrection: '',
  logoUrl: '',
  logoImageId: '',
});

export const emptyForm = (): CodeForm => ({
  type: 'url',
  name: '',
  slug: '',
  domain: '',
  notes: '',
  tags: '',
  content: '',
  design: defaultDesign(),
  routingEnabled: true,
  rules: [],
  lifecycle: emptyLifecycle(),
  links: emptyLinks(),
  socialPreview: emptyPreview(),
  page: '',
});

/** Name and notes as the API takes them: an empty one is absent on create and null (removed) on update. */
function labels(form: CodeForm, unset: null | undefined): Record<string, unknown> {
  const name = form.name.trim() === '' ? unset : form.name.trim();
  const notes = form.notes.trim() === '' ? unset : form.notes;
  return Object.fromEntries(Object.entries({ name, notes }).filter(([, value]) => value !== undefined));
}

/** The content field's text when the type changes: a template for structured types. */
export function contentTemplate(type: string): string {
  const template = CONTENT_TEMPLATES[type];
  return template === undefined ? '' : JSON.stringify(template, null, 2);
}

/** The content as the API takes it, or the problem with the text typed. */
export function parseContent(form: Pick<CodeForm, 'type' | 'content'>): { value: unknown } | { problem: FieldProblem } {
  if (form.type === 'url') return { value: form.content.trim() };
  if (form.type === 'text') return { value: { text: form.content } };
  try {
    return { value: JSON.parse(form.content) as unknown };
  } catch (err) {
    return { problem: { path: 'content', message: currentMessages().editor.invalidJson((err as Error).message) } };
  }
}

/** The design as CodeDesignInput; `unset` is what a default is sent as. */
export function designInput(d: DesignForm, unset: null | undefined): Record<string, unknown> {
  const or = <T>(value: T, isDefault: boolean) => (isDefault ? unset : value);
  const fields = {
    style: d.style,
    fgColor: d.fgColor,
    bgColor: d.bgColor,
    eyeStyle: or(d.eyeStyle, d.eyeStyle === ''),
    eyeColor: or(d.eyeColor, d.eyeColor === null),
    gradient: or(d.gradient, d.gradient === null),
    frame: d.frame,
    frameText: or(d.frameText.trim(), d.frame !== 'banner' || d.frameText.trim() === ''),
    // An emptied number input: the default quiet zone.
    margin: or(d.margin, !Number.isFinite(d.margin)),
    errorCorrection: or(d.errorCorrection, d.errorCorrection === ''),
    logoUrl: or(d.logoUrl.trim(), d.logoUrl.trim() === ''),
    logoImageId: or(d.logoImageId, d.logoImageId === ''),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

const routingInput = (form: CodeForm) => ({
  enabled: form.routingEnabled,
  // Their order is their priority: the first matching rule wins.
  rules: form.rules.map((r) =>
    r.weights ? { condition: r.condition, weights: r.weights } : { condition: r.condition, destination: r.destination },
  ),
});

type Built = { input: Record<string, unknown> } | { problems: FieldProblem[] };

/** CreateCodeInput without routing: what the live preview draws. */
export function previewInput(form: CodeForm): Built {
  const content = parseContent(form);
  if ('problem' in content) return { problems: [content.problem] };
  return { input: { type: form.type, content: content.value, design: designInput(form.design, undefined) } };
}

export function createInput(form: CodeForm): Built {
  const built = previewInput(form);
  if ('problems' in built) return built;
  const tags = tagNames(form.tags);
  const input = {
    ...built.input,
    ...labels(form, undefined),
    ...(tags.length > 0 ? { tags } : {}),
    ...lifecycleInput(form.lifecycle, form.type, undefined),
  };
  if (form.type !== 'url') return { input };
  const page = pageInput(form.page, undefined);
  if ('problem' in page) return { problems: [page.problem] };
  return {
    input: {
      ...('value' in page ? { page: page.value } : {}),
      ...input,
      ...(form.slug.trim() === '' ? {} : { slug: form.slug.trim() }),
      ...(form.domain === '' ? {} : { domain: form.domain }),
      routing: routingInput(form),
      ...linksInput(form.links, undefined),
      ...socialPreviewInput(form.socialPreview, undefined),
    },
  };
}

/** UpdateCodeInput: content, name, notes and tags, every design field (defaults reset), and the rules in order. */
export function updateInput(form: CodeForm): Built {
  const content = parseContent(form);
  if ('problem' in content) return { problems: [content.problem] };
  const input: Record<string, unknown> = {
    content: content.value,
    ...labels(form, null),
    tags: tagNames(form.tags),
    ...lifecycleInput(form.lifecycle, form.type, null),
    design: designInput(form.design, null),
  };
  if (form.type === 'url') {
    const page = pageInput(form.page, null);
    if ('problem' in page) return { problems: [page.problem] };
    input.page = page.value;
    input.routing = routingInput(form);
    Object.assign(input, linksInput(form.links, null), socialPreviewInput(form.socialPreview, null));
    // The same domain again changes nothing; another one moves the code.
    input.domain = form.domain === '' ? null : form.domain;
  }
  return { input };
}
