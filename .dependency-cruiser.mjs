/**
 * Import rules for the whole repository (docs/design.md#layers-and-the-cycle-rule).
 * Run by `npm run lint`. Type-only imports count: `tsPreCompilationDeps` keeps them in the graph.
 */
/**
 * core's folders from the bottom up: a folder imports only folders below it (and itself), so the
 * domain reads as layers with no reference back up. core's root files other than the entry points (index.ts, adapter.ts, sdk.ts)
 * (actor, errors, ids, paging, time…) sit just above schemas and ports. A new folder takes its place
 * here (docs/design.md#layers-and-the-cycle-rule).
 */
const CORE_LAYERS = [
  'schemas',
  'ports',
  'testing',
  'tiers',
  'audit',
  'verdict',
  'secrets',
  'leases',
  'receipts',
  'webhooks',
  'checkpoints',
  'witnessing',
  'ledger',
  'audit-receipts',
  'identity',
  'webhook-endpoints',
  'projects',
  'flight-sheets',
  'runs',
  'incidents',
  'share',
  'attestations',
  'tribunal',
  'router',
];

const coreLayerRules = CORE_LAYERS.map((folder, at) => ({
  name: `core-layer-${folder}`,
  severity: 'error',
  comment: `core/src/${folder} imports only the core folders below it: ${CORE_LAYERS.slice(0, at).join(', ') || 'none'}.`,
  from: { path: `^core/src/${folder}/`, pathNot: '[.]test[.]ts$' },
  to: { path: `^core/src/(${CORE_LAYERS.slice(at + 1).join('|')})/` },
})).filter((rule) => !rule.to.path.endsWith('()/'));

export default {
  forbidden: [
    ...coreLayerRules,
    {
      name: 'core-root-files-low',
      severity: 'error',
      comment:
        "core's root files (except the entry points index.ts, adapter.ts and sdk.ts) import only schemas and ports.",
      from: { path: '^core/src/[^/]+[.]ts$', pathNot: '^core/src/(index|sdk|adapter)[.]ts$' },
      to: { path: '^core/src/(?!schemas/|ports/)[^/]+/' },
    },
    {
      name: 'core-folder-in-layers',
      severity: 'error',
      comment: 'Every folder of core/src has its place in CORE_LAYERS.',
      from: { path: `^core/src/(?!(${CORE_LAYERS.join('|')})/)[^/]+/` },
      to: {},
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycle anywhere, type-only imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'verify-is-the-bottom',
      severity: 'error',
      comment: 'verify-tool depends on no other runledger package.',
      from: { path: '^verify-tool/' },
      to: { path: '^((core|adapters|server|cli)/|@runledger/(core|adapters|server|cli)(/|$))' },
    },
    {
      name: 'witness-on-verify-only',
      severity: 'error',
      comment: 'The witness depends on no runledger package but the verify package.',
      from: { path: '^witness/' },
      to: { path: '^((core|adapters|server|cli)/|@runledger/(core|adapters|server|cli)(/|$))' },
    },
    {
      name: 'core-below-adapters',
      severity: 'error',
      comment: 'core depends only on verify-tool.',
      from: { path: '^core/' },
      to: { path: '^((adapters|server|cli)/|@runledger/(adapters|server|cli)(/|$))' },
    },
    {
      name: 'adapters-below-server',
      severity: 'error',
      comment: 'adapters depend on core and verify-tool only.',
      from: { path: '^adapters/' },
      to: { path: '^((server|cli)/|@runledger/(server|cli)(/|$))' },
    },
    {
      name: 'server-below-cli',
      severity: 'error',
      comment: 'The server never imports the CLI.',
      from: { path: '^server/' },
      to: { path: '^(cli/|@runledger/cli$)' },
    },
    {
      name: 'cli-without-server',
      severity: 'error',
      comment:
        'The CLI talks to the server over HTTP only: installing it must not install the server (runledger-server is its own bin).',
      from: { path: '^cli/' },
      to: { path: '^(server/|@runledger/server(/|$))' },
    },
    {
      name: 'http-framework-below-apis',
      severity: 'error',
      comment:
        'server/src/http is the framework both APIs use: it never imports an API folder or background work.',
      from: { path: '^server/src/http/' },
      to: { path: '^server/src/(main-api|router-api|background)/' },
    },
    {
      name: 'core-is-pure',
      severity: 'error',
      comment:
        'Domain code in core does no I/O: it takes ports (the eslint rule checks clocks and timers).',
      from: { path: '^core/src/', pathNot: '\\.test\\.ts$' },
      to: {
        dependencyTypes: ['core'],
        path: '^(node:)?(fs|fs/promises|net|http|https|http2|child_process|dgram|dns|tls|cluster|worker_threads|os|process)$',
      },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', '(^|/)dist/'] },
    exclude: { path: ['(^|/)node_modules/', '^coverage/', '^data/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.test.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['types', 'import', 'default'],
      extensions: ['.ts', '.js', '.json'],
    },
  },
};
