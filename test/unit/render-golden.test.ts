// Golden SVGs pin the renderer's exact output, so any change to how codes look shows up as a
// reviewable diff. After an intended change, regenerate them with
//   UPDATE_GOLDEN=1 npx vitest run test/unit/render-golden.test.ts
// and look at the new files before committing them.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RenderDesign } from '../../src/modules/images/design.ts';
import { renderSvg } from '../../src/modules/images/render.ts';

const TEXT = 'https://qr.example/AbC1234';
const BASE: RenderDesign = {
  fgColor: '#000000',
  bgColor: '#ffffff',
  style: 'square',
  eyeStyle: 'square',
  eyeColor: '#000000',
  gradient: null,
  frame: 'none',
  frameText: null,
  margin: 4,
  errorCorrection: 'M',
};

const CASES: Record<string, RenderDesign> = {
  square: BASE,
  dots: { ...BASE, style: 'dots' },
  rounded: { ...BASE, style: 'rounded' },
  branded: { ...BASE, style: 'branded', eyeStyle: 'rounded' },
  'branded-banner': { ...BASE, style: 'branded', eyeStyle: 'rounded', frame: 'banner', frameText: 'Scan me' },
};

describe('renderSvg golden files', () => {
  for (const [name, design] of Object.entries(CASES)) {
    it(`test/golden/${name}.svg`, () => {
      const file = new URL(`../golden/${name}.svg`, import.meta.url);
      const svg = renderSvg(TEXT, design, null, 512);
      if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, svg);
      expect(svg).toBe(readFileSync(file, 'utf8'));
    });
  }
});
