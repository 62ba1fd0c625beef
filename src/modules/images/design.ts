// What the renderer draws: a design with every default resolved, in the renderer's own terms.
// The codes module maps a code's stored design onto this; the renderer knows nothing of codes.

export type ModuleStyle = 'square' | 'dots' | 'rounded' | 'branded';
export type EyeStyle = 'square' | 'rounded' | 'circle';
export type ErrorCorrectionLevel = 'L' | 'M' | 'Q' | 'H';

export interface Gradient {
  type: 'linear' | 'radial';
  /** #rrggbb at the start (linear) or centre (radial). */
  from: string;
  /** #rrggbb at the end (linear) or edge (radial). */
  to: string;
  /** Linear only: direction in degrees, 0 = left to right, 90 = top to bottom. */
  angle: number;
}

export interface RenderDesign {
  /** Module color (#rrggbb), unless a gradient is set. */
  fgColor: string;
  bgColor: string;
  style: ModuleStyle;
  /** Finder patterns ("eyes"); branded codes default to rounded. */
  eyeStyle: EyeStyle;
  /** #rrggbb of the finder patterns (already defaulted to fgColor or the gradient start). */
  eyeColor: string;
  gradient: Gradient | null;
  frame: 'none' | 'banner';
  /** Call to action under the code when frame is banner, e.g. "Scan me". */
  frameText: string | null;
  /** Quiet zone in modules, at least 2. */
  margin: number;
  errorCorrection: ErrorCorrectionLevel;
}

/** A logo already fetched and checked, embedded as a data URI. */
export interface RenderLogo {
  /** data:image/png;base64,… (or jpeg/webp/gif). */
  dataUri: string;
  /** Intrinsic pixel size, for the aspect ratio. */
  width: number;
  height: number;
}
