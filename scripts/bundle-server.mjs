// The server as the container image runs it (Dockerfile): the compiled server (`npm run build`)
// bundled by esbuild into a few files in OUT/dist/server/src, and in OUT/node_modules only what
// cannot be bundled, with its production dependencies from package-lock.json. Half the image's
// size over its base was node_modules (bench/RESULTS.md, "image size").
//
//   node scripts/bundle-server.mjs OUT
//
// The entries lie side by side, as threadEntry (src/shared/build-layout.ts) expects: main.js,
// cli.js and the three thread entries. Left out of the bundle: native addons, packages that start
// a worker thread from a file of their own (piscina, pino's thread-stream), the data files the
// server opens by package path, knex's drivers that are not installed, and GraphiQL (served only
// in development).
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const out = process.argv[2];
if (!out) throw new Error('usage: node scripts/bundle-server.mjs OUT');

const ENTRIES = [
  'main.js',
  'cli.js',
  'modules/images/render-worker.js',
  'scan-writer/thread.js',
  'db/read-thread-worker.js',
].map((entry) => join('dist/server/src', entry));
const KEPT = [
  'better-sqlite3',
  '@resvg/resvg-js',
  '@node-rs/argon2',
  'piscina',
  'pino',
  '@ip-location-db/geo-whois-asn-country-mmdb',
  '@fontsource/inter',
];
const ABSENT = ['pg', 'pg-query-stream', 'tedious', 'oracledb', 'mysql', 'sqlite3', 'mariadb'];
const DEVELOPMENT_ONLY = ['@graphql-yoga/render-graphiql'];

// pdfkit loads its standard fonts' metrics (Helvetica, the default font of every PDF) with its own
// createRequire and its package's `#standard-fonts/*` imports, which a bundle has neither of: they
// become plain requires of the same files through its exports (`pdfkit/standard-fonts/*`), which
// esbuild bundles. A pdfkit that loads them otherwise fails the build here, not a PDF at run time.
const pdfkitStandardFonts = {
  name: 'pdfkit-standard-fonts',
  setup(plugin) {
    plugin.onLoad({ filter: /[\\/]pdfkit[\\/]js[\\/]pdfkit\.node\.mjs$/ }, ({ path }) => {
      const code = readFileSync(path, 'utf8');
      const rewritten = code.replaceAll("require$1('#standard-fonts/", "require('pdfkit/standard-fonts/");
      if (rewritten === code) throw new Error(`${path} loads #standard-fonts/* otherwise now: see this plugin`);
      return { contents: rewritten, loader: 'js' };
    });
  },
};

rmSync(out, { recursive: true, force: true });
const src = join(out, 'dist/server/src');
await build({
  entryPoints: ENTRIES,
  outdir: src,
  entryNames: '[name]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node24',
  minify: true,
  external: [...KEPT, ...ABSENT, ...DEVELOPMENT_ONLY],
  // The CommonJS packages in the bundle call require and read files beside __dirname.
  banner: {
    js: [
      "import { createRequire as __createRequire } from 'node:module';",
      "import { dirname as __pathDirname } from 'node:path';",
      "import { fileURLToPath as __fileURLToPath } from 'node:url';",
      'const require = __createRequire(import.meta.url);',
      'const __filename = __fileURLToPath(import.meta.url);',
      'const __dirname = __pathDirname(__filename);',
    ].join(' '),
  },
  plugins: [pdfkitStandardFonts],
  logLevel: 'warning',
});
// pdfkit (in the bundle) reads its ICC profile beside its module: ./data of the bundle's files.
cpSync('node_modules/pdfkit/js/data', join(src, 'data'), { recursive: true });

// The kept packages and their production dependencies, as npm laid them out.
const packages = JSON.parse(readFileSync('package-lock.json', 'utf8')).packages;
const resolve = (from, name) => {
  for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
    const path = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (packages[path]) return path;
    if (!dir) return null;
  }
};
const copied = new Set();
const copy = (path) => {
  // Another platform's optional binary is in the lockfile but not installed.
  if (!path || copied.has(path) || packages[path].dev || !existsSync(path)) return;
  copied.add(path);
  cpSync(path, join(out, path), { recursive: true });
  const { dependencies = {}, optionalDependencies = {} } = packages[path];
  for (const name of Object.keys({ ...dependencies, ...optionalDependencies })) copy(resolve(path, name));
};
for (const name of KEPT) copy(`node_modules/${name}`);
console.log(`bundled ${ENTRIES.length} entries into ${src}; kept ${copied.size} packages in ${out}/node_modules`);
