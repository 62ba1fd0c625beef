// `npm run build`: the dashboard (Preact + Chart.js, see src/) into dist/dashboard, which the API
// server answers at /dashboard (src/http/dashboard.ts). Everything is bundled: no CDN, no fonts.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
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
