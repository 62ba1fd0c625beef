// A saved code as the editor loads it, and the form that edits it.
import { LIFECYCLE_FIELDS, lifecycleFormOf, type SavedLifecycle } from './lifecycle-form.ts';
import { LINKS_FIELDS, linksFormOf, type SavedLinks } from './app-links-form.ts';
import { PREVIEW_FIELDS, previewFormOf, type SavedPreview } from './preview-form.ts';
import { pageTextOf } from './page-form.ts';
import { defaultDesign, type CodeForm, type DesignForm, type RuleForm } from './model.ts';

const DESIGN_FIELDS =
  'fgColor bgColor style logoUrl logoImageId errorCorrection eyeStyle eyeColor gradient { type from to angle } ' +
  'frame frameText margin';

/** The fields the editor needs; every query and mutation of the editor answers them. */
export const CODE_FIELDS = `id type content name notes tags domain slug scanUrl createdAt updatedAt page
  ${LIFECYCLE_FIELDS} ${LINKS_FIELDS} ${PREVIEW_FIELDS}
  design { ${DESIGN_FIELDS} }
  routing { enabled rules { ruleId condition destination conditions { weights { destination weight } } } }
  svg(size: 320)`;

export interface SavedCode extends SavedLifecycle, SavedLinks, SavedPreview {
  id: string;
  type: string;
  content: unknown;
  /** The hosted page in REST's shape, or null. */
  page: unknown;
  name: string | null;
  notes: string | null;
  tags: string[];
  domain: string | null;
  slug: string | null;
  scanUrl: string | null;
  createdAt: string;
  updatedAt: string;
  design: Omit<DesignForm, 'eyeStyle' | 'eyeColor' | 'frameText' | 'errorCorrection' | 'logoUrl' | 'logoImageId'> & {
    eyeStyle: string;
    eyeColor: string;
    frameText: string | null;
    errorCorrection: string;
    logoUrl: string | null;
    logoImageId: string | null;
  };
  routing: {
    enabled: boolean;
    rules: {
      ruleId: string;
      condition: string;
      destination: string | null;
      conditions: { weights: RuleForm['weights'] };
    }[];
  };
  svg: string;
}

/**
 * The server answers designs with defaults filled in; a value equal to its default goes back to
 * "default" in the form, so that changing the module color still moves the eyes along.
 */
function designForm(d: SavedCode['design']): DesignForm {
  const defaultEyeStyle = d.style === 'branded' ? 'rounded' : 'square';
  const defaultLevel = d.logoUrl || d.logoImageId ? 'H' : 'M';
  return {
    ...defaultDesign(),
    style: d.style,
    fgColor: d.fgColor,
    bgColor: d.bgColor,
    eyeStyle: d.eyeStyle === defaultEyeStyle ? '' : d.eyeStyle,
    eyeColor: d.eyeColor === (d.gradient?.from ?? d.fgColor) ? null : d.eyeColor,
    gradient: d.gradient,
    frame: d.frame,
    frameText: d.frameText ?? '',
    margin: d.margin,
    errorCorrection: d.errorCorrection === defaultLevel ? '' : d.errorCorrection,
    logoUrl: d.logoUrl ?? '',
    logoImageId: d.logoImageId ?? '',
  };
}

function contentText(code: SavedCode): string {
  if (typeof code.content === 'string') return code.content;
  if (code.type === 'text') return String((code.content as { text: string }).text);
  return JSON.stringify(code.content, null, 2);
}

export function formOf(code: SavedCode): CodeForm {
  return {
    type: code.type,
    name: code.name ?? '',
    // Shown read-only: updates do not take a slug.
    slug: code.slug ?? '',
    domain: code.domain ?? '',
    notes: code.notes ?? '',
    tags: code.tags.join(', '),
    content: contentText(code),
    design: designForm(code.design),
    routingEnabled: code.routing.enabled,
    rules: code.routing.rules.map((r) => ({
      key: r.ruleId,
      condition: r.condition,
      destination: r.destination ?? '',
      weights: r.conditions.weights,
    })),
    lifecycle: lifecycleFormOf(code),
    links: linksFormOf(code),
    socialPreview: previewFormOf(code),
    page: pageTextOf(code.page),
  };
}
