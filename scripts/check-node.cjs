// Refuses to go on under a Node the project does not support, before anything native loads: on
// Node 20 the service's native modules end in a bare "Segmentation fault" (and a `KEY=$(...)`
// left empty). `npm start`, `npm run cli` and `npm run migrate` preload it (`node --require`),
// `npm test` and `npm run dev` run it first. CommonJS in old syntax and `--require` (which every
// Node has, unlike `--import`), so it runs on whatever Node a machine happens to have. The
// supported majors are read from package.json's "engines" (`^24.0.0 || ^26.0.0`), the range
// `npm install` enforces through .npmrc's engine-strict.
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose, see above */
'use strict';
var path = require('path');

var range = require(path.join(__dirname, '..', 'package.json')).engines.node;
var supported = (range.match(/\^\d+/g) || []).map(function (caret) {
  return Number(caret.slice(1));
});
var found = process.versions.node;

if (supported.indexOf(Number(found.split('.')[0])) === -1) {
  process.stderr.write(
    'qr-service needs Node ' +
      supported.join(' or ') +
      ' (package.json engines: ' +
      range +
      '), and this is Node ' +
      found +
      ' (' +
      process.execPath +
      '): run `source scripts/use-node.sh ' +
      supported[0] +
      '` in this shell, then the command again.\n',
  );
  process.exit(1);
}
