// A saved code as the editor loads it, and the form that edits it.
import { LIFECYCLE_FIELDS, lifecycleFormOf, type SavedLifecycle } from './lifecycle-form.ts';
import { defaultDesign, type CodeForm, type DesignForm, type RuleForm } from './model.ts';

const DESIGN_FIELDS =
  'fgColor bgColor style logoUrl errorCorrection eyeStyle eyeColor gradient { type from to angle } frame frameText ' +
  'margin';

/** The fields the editor needs; every query and mutation of the editor answers them. */
export const CODE_FIELDS = `id type content name notes tags domain scanUrl createdAt updatedAt ${LIFECYCLE_FIELDS}
  design { ${DESIGN_FIELDS} }
  routing { enabled rules { ruleId condition destination conditions { weights { destination weight } } } }
  svg(size: 320)`;

export interface SavedCode extends SavedLifecycle {
  id: string;
  type: string;
  content: unknown;
  name: string | null;
  notes: string | null;
  tags: string[];
  domain: string | null;
  scanUrl: string | null;
  createdAt: string;
  updatedAt: string;
  design: Omit<DesignForm, 'eyeStyle' | 'eyeColor' | 'frameText' | 'errorCorrection' | 'logoUrl'> & {
    eyeStyle: string;
    eyeColor: string;
    frameText: string | null;
    errorCorrection: string;
    logoUrl: string | null;
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
  const defaultLevel = d.logoUrl ? 'H' : 'M';
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
    slug: '',
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
  };
}
