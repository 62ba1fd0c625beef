// The code as the domain sees it, and the design rules that span several fields.
import type { FieldError } from '../../shared/errors.ts';
import type { Routing } from '../routing/rule.ts';
import type { CodeType, DesignInput, DesignPatch, ErrorCorrection, Style } from './schemas.ts';

export interface Code {
  id: string;
  accountId: string;
  type: CodeType;
  content: string;
  /** Only what the client chose; see resolveDesign for what is drawn. */
  design: DesignInput;
  routing: Routing;
  slug: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface ResolvedDesign {
  fg_color: string;
  bg_color: string;
  style: Style;
  logo_url: string | null;
  error_correction: ErrorCorrection;
}

/** The design with every default filled in. A logo raises the default level to H. */
export function resolveDesign(design: DesignInput): ResolvedDesign {
  return {
    fg_color: design.fg_color ?? '#000000',
    bg_color: design.bg_color ?? '#ffffff',
    style: design.style ?? 'square',
    logo_url: design.logo_url ?? null,
    error_correction: design.error_correction ?? (design.logo_url ? 'H' : 'M'),
  };
}

/** Applies a PATCH to the chosen fields: a value sets a field, null returns it to its default. */
export function mergeDesign(current: DesignInput, patch: DesignPatch): DesignInput {
  const next: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete next[field];
    else if (value !== undefined) next[field] = value;
  }
  return next as DesignInput;
}

/** Rules that need more than one field. A logo hides modules, so it needs a high level. */
export function designProblems(design: DesignInput): FieldError[] {
  const resolved = resolveDesign(design);
  const problems: FieldError[] = [];
  if (resolved.logo_url && (resolved.error_correction === 'L' || resolved.error_correction === 'M')) {
    problems.push({
      path: 'design.error_correction',
      message: 'a logo covers part of the code, so error_correction must be Q or H when logo_url is set',
    });
  }
  if (resolved.fg_color === resolved.bg_color) {
    problems.push({ path: 'design.bg_color', message: 'must differ from fg_color, or the code cannot be read' });
  }
  return problems;
}
