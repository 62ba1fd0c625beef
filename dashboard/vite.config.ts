// `npm run build`: the dashboard (Preact + Chart.js, see src/) into dist/dashboard, which the API
// server answers at /dashboard (src/http/dashboard.ts). Everything is bundled: no CDN, no fonts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import { LOCALES_DIR, languageNamesModule } from './build/language-names.ts';
import { worldShapesModule } from './build/world-shapes.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Writes a .br and a .gz beside every script, style sheet and SVG of 1 KiB or more, compressed
 * once at build time at the highest levels; the server sends the one the browser accepts.
 */
const precompress = (): Plugin => ({
  name: 'qr-precompress',
  apply: 'build',
  writeBundle(options, bundle) {
    for (const file of Object.values(bundle)) {
      if (!/\.(js|css|svg)$/.test(file.fileName)) continue;
      const bytes = Buffer.from(file.type === 'chunk' ? file.code : file.source);
      if (bytes.length < 1024) continue;
      const path = join(options.dir!, file.fileName);
      writeFileSync(
        `${path}.br`,
        brotliCompressSync(bytes, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
        }),
      );
      writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
    }
  },
});

/** `virtual:world-shapes`: the world map's shapes, projected once at build time. */
const worldShapes = (): Plugin => {
  const id = 'virtual:world-shapes';
  return {
    name: 'qr-world-shapes',
    resolveId: (source) => (source === id ? '\0' + id : null),
    load: (resolved) => (resolved === '\0' + id ? worldShapesModule() : null),
  };
};

/** `virtual:language-names`: each catalogue's language named in itself, for the language picker. */
const languageNames = (): Plugin => {
  const id = 'virtual:language-names';
  return {
    name: 'qr-language-names',
    resolveId: (source) => (source === id ? '\0' + id : null),
    load(resolved) {
      if (resolved !== '\0' + id) return null;
      // A catalogue added while the dev server runs is named on the next load.
      this.addWatchFile(LOCALES_DIR);
      return languageNamesModule();
    },
  };
};

export default defineConfig({
  plugins: [precompress(), worldShapes(), languageNames()],
  root: here('.'),
  base: '/dashboard/',
  // No public/ folder: every file the page loads is bundled and content-hashed.
  publicDir: false,
  // Vite's built-in transform, told to compile JSX for Preact (no @preact/preset-vite needed).
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: here('../dist/dashboard'),
    emptyOutDir: true,
  },
});
