// Import direction, checked in CI (npm run lint:imports). The layers, lowest first: a file may
// import its own layer's folder and anything below it, never above, and no cycle may form.
// The order is the one ../shared/ARCHITECTURE.md names, with the folders it leaves out placed
// where their imports put them. Needs that point upward (the image check on saving a code, a
// committed scan batch feeding the webhook outbox) are handed in as functions by services.ts,
// or by scan-writer/, the scan writer thread's own composition root.
const LAYERS = [
  ['shared', 'config', 'logger'],
  ['db'],
  ['http', 'graphql'],
  ['modules/routing', 'modules/tags'],
  ['modules/codes'],
  ['modules/images', 'modules/domains'],
  ['modules/scans'],
  ['modules/analytics'],
  ['modules/webhooks'],
  ['modules/idempotency', 'modules/bulk', 'modules/batches'],
  ['modules/accounts', 'modules/oauth'],
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

module.exports = {
  forbidden: [
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
