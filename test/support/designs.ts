// A renderer design as the API resolves one (codes/model.ts): black on white, square, level M,
// a quiet zone of 4; eyes rounded for branded codes, else square, and in the module colour.
import type { RenderDesign } from '../../src/modules/images/design.ts';

export function renderDesign(overrides: Partial<RenderDesign> = {}): RenderDesign {
  return {
    fgColor: '#000000',
    bgColor: '#ffffff',
    style: 'square',
    eyeStyle: overrides.style === 'branded' ? 'rounded' : 'square',
    eyeColor: overrides.fgColor ?? '#000000',
    gradient: null,
    frame: 'none',
    frameText: null,
    margin: 4,
    errorCorrection: 'M',
    ...overrides,
  };
}
