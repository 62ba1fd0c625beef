// GraphiQL (development only) as a small page and long-cached files. The package's own page is
// one 9 MB HTML document (script, styles, editor workers and icon inline) sent again on every
// load; here the same parts are served as content-named files under /graphql/assets, cached
// for good and compressed once, so that a reload costs the page's few hundred bytes. The page
// has no inline script: its options travel as JSON data, so its policy needs no hashes.
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { GraphiQLOptions } from 'graphql-yoga';
import { DomainError } from '../shared/errors.ts';
import type { Precompressed } from './precompressed.ts';

export const GRAPHIQL_ASSETS_PATH = '/graphql/assets';

export interface GraphiQLAsset {
  type: string;
  bytes: Buffer;
  /** Compressed on first request, then kept. */
  encoded: Partial<Record<Precompressed, Buffer>>;
}

type GraphiQLParts = typeof import('@graphql-yoga/render-graphiql/graphiql');

/** The page's script: the editor's workers from blob: URLs, GraphiQL, then the render call. */
const script = (parts: GraphiQLParts) => `(function () {
  var blob = function (source) { return URL.createObjectURL(new Blob([source], { type: 'application/javascript' })); };
  var workers = {
    editorWorkerService: blob(${JSON.stringify(parts.editorWorkerService)}),
    json: blob(${JSON.stringify(parts.jsonWorker)}),
    graphql: blob(${JSON.stringify(parts.graphqlWorker)})
  };
  self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: function (_moduleId, label) { return workers[label]; } };
})();
${parts.js};
YogaGraphiQL.renderYogaGraphiQL(
  document.querySelector('#root'),
  JSON.parse(document.getElementById('graphiql-options').textContent)
);
`;

function named(extension: string, type: string, bytes: Buffer): [string, GraphiQLAsset] {
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  return [`graphiql-${hash}.${extension}`, { type, bytes, encoded: {} }];
}

interface GraphiQLFiles {
  byName: Map<string, GraphiQLAsset>;
  script: string;
  style: string;
  icon: string;
}

// Loaded on first use: a production process (no GraphiQL) never holds its 9 MB.
let files: Promise<GraphiQLFiles> | undefined;

/**
 * GraphiQL is a dev dependency (18 MB a production install and the image leave out): where it
 * is not installed (NODE_ENV=development over `npm ci --omit=dev`), the page says so.
 */
const notInstalled = () =>
  new DomainError(
    'not_implemented',
    'GraphiQL is not installed here: it is a development dependency (npm ci without --omit=dev installs it).',
  );

function loadFiles(): Promise<GraphiQLFiles> {
  files ??= import('@graphql-yoga/render-graphiql/graphiql')
    .catch((err: unknown) => {
      files = undefined;
      throw (err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' ? notInstalled() : err;
    })
    .then((parts) => {
      const entries = [
        named('js', 'text/javascript; charset=utf-8', Buffer.from(script(parts), 'utf8')),
        named('css', 'text/css; charset=utf-8', Buffer.from(parts.css, 'utf8')),
        named('ico', 'image/x-icon', Buffer.from(parts.favicon.slice(parts.favicon.indexOf(',') + 1), 'base64')),
      ];
      return { byName: new Map(entries), script: entries[0]![0], style: entries[1]![0], icon: entries[2]![0] };
    });
  return files;
}

export const graphiqlAsset = async (name: string): Promise<GraphiQLAsset | undefined> =>
  (await loadFiles()).byName.get(name);

/** The asset's bytes in `encoding`, compressed the first time they are asked for. */
export function encodedAsset(asset: GraphiQLAsset, encoding: Precompressed): Buffer {
  asset.encoded[encoding] ??=
    encoding === 'br'
      ? brotliCompressSync(asset.bytes, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: asset.bytes.length },
        })
      : gzipSync(asset.bytes, { level: 6 });
  return asset.encoded[encoding]!;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** yoga's `renderGraphiQL`: the page, linking the assets above. */
export async function renderGraphiQL(options?: GraphiQLOptions): Promise<string> {
  const { script: scriptName, style: styleName, icon: iconName } = await loadFiles();
  // As JSON inside a <script type="application/json">, only `<` could end the element early.
  const data = JSON.stringify(options ?? {}).replaceAll('<', '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(options?.title ?? 'GraphiQL')}</title>
<link rel="icon" href="${GRAPHIQL_ASSETS_PATH}/${iconName}">
<link rel="stylesheet" href="${GRAPHIQL_ASSETS_PATH}/${styleName}">
</head>
<body id="body" class="no-focus-outline">
<noscript>You need to enable JavaScript to run GraphiQL.</noscript>
<div id="root"></div>
<script type="application/json" id="graphiql-options">${data}</script>
<script src="${GRAPHIQL_ASSETS_PATH}/${scriptName}"></script>
</body>
</html>`;
}
