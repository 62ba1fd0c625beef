// Import direction, checked in CI (npm run lint:imports). The layers, lowest first: a file may
// import its own layer's folder and anything below it, never above, and no cycle may form.
// The order is the one docs/architecture.md shows, with the folders it leaves out placed
// where their imports put them. Needs that point upward (the image check on saving a code, a
// committed scan batch feeding the webhook outbox) are handed in as functions by services.ts,
// or by scan-writer/, the scan writer thread's own composition root.
const LAYERS = [
  ['shared', 'config', 'logger'],
  ['db'],
  ['http', 'graphql'],
  ['modules/routing', 'modules/tags', 'modules/audit'],
  ['modules/codes'],
  ['modules/images', 'modules/domains', 'modules/utm-templates', 'modules/pages'],
  ['modules/scans'],
  ['modules/analytics'],
  ['modules/webhooks'],
  ['modules/idempotency', 'modules/bulk', 'modules/batches', 'modules/imports'],
  ['modules/accounts', 'modules/oauth', 'modules/users', 'modules/workspaces'],
  ['api', 'services', 'scan-writer'],
  ['app', 'cluster', 'cli'],
  ['main'],
];

const folder = (name) => `^src/${name}([./]|$)`;
const upward = LAYERS.flatMap((layer, i) => {
  const above = LAYERS.slice(i + 1).flat();
  if (above.length === 0) return [];
  return layer.map((name) => ({
    name: `no-upward-from-${name.replace('/', '-')}`,
    comment: `${name} may not import ${above.join(', ')} (a layer above it)`,
    severity: 'error',
    from: { path: folder(name) },
    to: { path: above.map(folder).join('|') },
  }));
});

// A module's faces: index.ts for everything other modules use (services, stores, types,
// presenters), and its transports (graphql.ts, openapi.ts, rest.ts), which only the assembly
// (api/) and other modules' transports import (the codes GraphQL type that analytics extends).
const FACE = '(index|graphql|openapi|rest)\\.ts$';
const TRANSPORT = '(graphql|openapi|rest)\\.ts$';
const faces = [
  {
    name: 'module-faces-only',
    comment: 'Another module is reached through its index.ts (or its transports, from a transport)',
    severity: 'error',
    from: { path: '^src/modules/([^/]+)/' },
    to: { path: `^src/modules/[^/]+/(?!${FACE})`, pathNot: '^src/modules/$1/' },
  },
  {
    name: 'module-faces-only-from-outside',
    comment: 'Code outside the modules reaches a module through its index.ts (or, in api/, its transports)',
    severity: 'error',
    from: { path: '^src/', pathNot: '^src/modules/' },
    to: { path: `^src/modules/[^/]+/(?!${FACE})` },
  },
  {
    name: 'transports-from-transports',
    comment: "A module's transport files are imported only by api/ and by other modules' transports",
    severity: 'error',
    from: { path: '^src/', pathNot: `^src/api/|^src/modules/[^/]+/${TRANSPORT}` },
    to: { path: `^src/modules/([^/]+)/${TRANSPORT}` },
  },
];

module.exports = {
  forbidden: [
    ...faces,
    {
      name: 'no-circular',
      comment: 'A cycle between files: one of them belongs lower, or a need should be handed in.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...upward,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
