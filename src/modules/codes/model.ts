// The code as the domain sees it, and the design rules that span several fields.
import type { FieldError } from '../../shared/errors.ts';
import { contrastRatio, isLighter, MIN_CONTRAST } from './contrast.ts';
import type { Routing } from '../routing/index.ts';
import type { AppLinks } from './app-links.ts';
import type { Page } from './page.ts';
import type { CodeLifecycle } from './lifecycle.ts';
import type { Preview } from './preview.ts';
import type { Utm } from './utm.ts';
import type { CodeContent, CodeType, DesignInput, DesignPatch, ErrorCorrection, Style } from './schemas.ts';

export interface Code {
  id: string;
  accountId: string;
  type: CodeType;
  content: CodeContent;
  /** A title people give the code (not unique), or null. */
  name: string | null;
  /** Free text about the code, or null. */
  notes: string | null;
  /** A url code's scans carry the scan URL's query string on to the destination (UTM passthrough). */
  forwardQuery: boolean;
  /**
   * The argon2id hash of the password a scan must give before it redirects (password.ts), or null.
   * Never presented: the API says only `password_protected`.
   */
  passwordHash: string | null;
  /** Url codes: per-OS app targets used when no routing rule matched (app-links.ts), or null. */
  appLinks: AppLinks | null;
  /** Url codes: the hosted page scans are answered with instead of the redirect (page.ts), or null. */
  page: Page | null;
  /** Url codes: UTM parameters merged into the destination at scan time (utm.ts), or null. */
  utm: Utm | null;
  /** Url codes: what link-preview crawlers are shown (preview.ts), or null. */
  preview: Preview | null;
  /** Status, expiry and scan limit (lifecycle.ts). */
  lifecycle: CodeLifecycle;
  /** Only what the client chose; see resolveDesign for what is drawn. */
  design: DesignInput;
  /** The stored logo (fetched from design.logo_url), or null. */
  logoId: string | null;
  routing: Routing;
  /** Names of the account's tags the code carries, sorted by name (case ignored). */
  tags: string[];
  /** Null for static codes: they have no scan URL. */
  slug: string | null;
  /** The account's own domain the scan URL is on (a hostname), or null for the service's. */
  domain: string | null;
  /**
   * Scans the code had at the service it was imported from (cli import, POST /imports): history
   * kept apart, never part of the scans recorded here or of any analytics total. 0 if not imported.
   */
  importedScans: number;
  createdAt: Date;
  updatedAt: Date;
}

/** What caches need to know to drop a code that changed. */
export type ChangedCode = Pick<Code, 'id' | 'slug' | 'domain'>;

export interface ResolvedDesign {
  fg_color: string;
  bg_color: string;
  style: Style;
  logo_url: string | null;
  logo_image_id: string | null;
  error_correction: ErrorCorrection;
  eye_style: 'square' | 'rounded' | 'circle';
  eye_color: string;
  gradient: { type: 'linear' | 'radial'; from: string; to: string; angle: number } | null;
  frame: 'none' | 'banner';
  frame_text: string | null;
  margin: number;
  allow_light_on_dark: boolean;
}

/** Whether the design names a logo, fetched (logo_url) or uploaded (logo_image_id). */
export const hasLogo = (design: Pick<DesignInput, 'logo_url' | 'logo_image_id'>) =>
  Boolean(design.logo_url ?? design.logo_image_id);

/** The design with every default filled in. A logo raises the default level to H. */
export function resolveDesign(design: DesignInput): ResolvedDesign {
  const style = design.style ?? 'square';
  const frame = design.frame ?? 'none';
  const gradient = design.gradient ?? null;
  return {
    fg_color: design.fg_color ?? '#000000',
    bg_color: design.bg_color ?? '#ffffff',
    style,
    logo_url: design.logo_url ?? null,
    logo_image_id: design.logo_image_id ?? null,
    error_correction: design.error_correction ?? (hasLogo(design) ? 'H' : 'M'),
    eye_style: design.eye_style ?? (style === 'branded' ? 'rounded' : 'square'),
    eye_color: design.eye_color ?? gradient?.from ?? design.fg_color ?? '#000000',
    gradient,
    frame,
    frame_text: frame === 'banner' ? (design.frame_text ?? 'Scan me') : null,
    margin: design.margin ?? 4,
    allow_light_on_dark: design.allow_light_on_dark ?? false,
  };
}

/**
 * Applies a PATCH to the chosen fields: a value sets a field, null returns it to its default. A
 * logo set one way (logo_url, logo_image_id) replaces one set the other way.
 */
export function mergeDesign(current: DesignInput, patch: DesignPatch): DesignInput {
  const next: Record<string, unknown> = { ...current };
  if (patch.logo_url && patch.logo_image_id === undefined) delete next.logo_image_id;
  if (patch.logo_image_id && patch.logo_url === undefined) delete next.logo_url;
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete next[field];
    else if (value !== undefined) next[field] = value;
  }
  return next as DesignInput;
}

function contrastProblem(path: string, color: string, what: string, bg: string): FieldError | null {
  const ratio = contrastRatio(color, bg);
  if (ratio >= MIN_CONTRAST) return null;
  return {
    path,
    message:
      `${what} ${color} on bg_color ${bg} has a contrast of ${ratio.toFixed(1)}:1; scanners need at least ` +
      `${MIN_CONTRAST}:1`,
  };
}

/**
 * The design's colors drawn on bg_color that are lighter than it, by field: a light-on-dark code.
 * The eyes count only when their color was chosen; otherwise they are the modules' own.
 */
function lighterThanBackground(design: DesignInput, d: ResolvedDesign): { field: string; color: string }[] {
  const colors = d.gradient
    ? [
        { field: 'gradient.from', color: d.gradient.from },
        { field: 'gradient.to', color: d.gradient.to },
      ]
    : [{ field: 'fg_color', color: d.fg_color }];
  if (design.eye_color) colors.push({ field: 'eye_color', color: d.eye_color });
  return colors.filter(({ color }) => isLighter(color, d.bg_color));
}

const LIGHT_ON_DARK_READERS = 'zbar, the readers built on it and many phone cameras cannot read light-on-dark codes';

/** Something a client should know about a code that was accepted as it is. */
export interface DesignWarning {
  code: 'light_on_dark';
  message: string;
}

/** What is worth knowing about a design that was saved: light modules on a dark ground. */
export function designWarnings(design: DesignInput): DesignWarning[] {
  const lighter = lighterThanBackground(design, resolveDesign(design));
  if (lighter.length === 0) return [];
  const fields = lighter.map(({ field }) => field).join(' and ');
  return [{ code: 'light_on_dark', message: `${fields} lighter than bg_color: ${LIGHT_ON_DARK_READERS}` }];
}

/**
 * Rules that need more than one field: readable contrast, light on dark only when asked for, a
 * logo only with a high level.
 */
export function designProblems(design: DesignInput): FieldError[] {
  const d = resolveDesign(design);
  const problems: (FieldError | null)[] = [];
  if (d.logo_url && d.logo_image_id)
    problems.push({ path: 'design.logo_image_id', message: 'give logo_url or logo_image_id, not both' });
  if (hasLogo(design) && (d.error_correction === 'L' || d.error_correction === 'M')) {
    problems.push({
      path: 'design.error_correction',
      message: 'a logo covers part of the code, so error_correction must be Q or H when a logo is set',
    });
  }
  if (d.gradient) {
    problems.push(contrastProblem('design.gradient.from', d.gradient.from, 'gradient.from', d.bg_color));
    problems.push(contrastProblem('design.gradient.to', d.gradient.to, 'gradient.to', d.bg_color));
  } else {
    problems.push(contrastProblem('design.fg_color', d.fg_color, 'fg_color', d.bg_color));
  }
  if (design.eye_color) problems.push(contrastProblem('design.eye_color', d.eye_color, 'eye_color', d.bg_color));
  if (!d.allow_light_on_dark) {
    for (const { field, color } of lighterThanBackground(design, d)) {
      problems.push({
        path: `design.${field}`,
        message:
          `${field} ${color} is lighter than bg_color ${d.bg_color}: ${LIGHT_ON_DARK_READERS}; use modules darker ` +
          `than the background, or set allow_light_on_dark: true to accept that`,
      });
    }
  }
  if (design.frame_text !== undefined && d.frame !== 'banner') {
    problems.push({ path: 'design.frame_text', message: "needs frame: 'banner'" });
  }
  return problems.filter((p): p is FieldError => p !== null);
}
