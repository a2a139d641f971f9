/**
 * Architecture checks (`npm run check`): no import cycles between files, and every folder of `src/`
 * imports only from the folders before it in pipeline order. `research/` and `bin/` sit above the product;
 * nothing in `src/` imports them.
 */
const LAYERS = [
  'model',
  'read',
  'catalog',
  'validate',
  'compile',
  'solvers',
  'decode',
  'confidence',
  'repair',
  'score',
  'mappings',
  'feedback',
  'tags',
  'heal',
  'loop',
  'api',
  'workers',
  'batch',
  'cluster',
  'server',
  'mcp',
  'agents',
  'library',
  'cli',
];

const upward = LAYERS.slice(0, -1).map((layer, k) => ({
  name: `layer-${layer}`,
  comment: `src/${layer}/ may import only from the layers before it: ${LAYERS.slice(0, k).join(', ') || 'none'}`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: `^src/(${LAYERS.slice(k + 1).join('|')})/` },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'a file may not reach itself through its imports',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'product-below-research',
      comment: 'the product (src/) never imports research, benchmarks, tests or the executable',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(research|benchmarks|test|bin)/' },
    },
    {
      name: 'unknown-folder',
      comment: 'every folder of src/ has a place in the layer order (.dependency-cruiser.cjs)',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: `^src/(${LAYERS.join('|')})/` },
      to: {},
    },
    ...upward,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.mjs', '.js'] },
  },
};
