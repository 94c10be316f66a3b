/**
 * The import rules of src/, checked by `npm run lint:deps` (and CI). docs/architecture.md explains
 * the layers; this file is where they are written down for the machine.
 *
 * Only src/ is cruised: tests, examples, benchmarks and scripts may import anything.
 * Type-only imports count like any other (`tsPreCompilationDeps`): a type is a dependency too.
 */

/**
 * The layers, bottom to top. A module may import its own folder (or file) and anything on a lower
 * layer; never a higher layer, and never a sibling on its own layer.
 */
const LAYERS = [
  ['src/clock.ts'],
  ['src/util/'],
  ['src/machinery/'],
  ['src/metrics/'],
  ['src/codec/', 'src/pki/', 'src/storage/', 'src/cri/'],
  ['src/schema/', 'src/webhook/', 'src/tracing/'],
  ['src/cel/'],
  ['src/selectors/', 'src/patch/'],
  ['src/kinds/', 'src/config/'],
  ['src/log/', 'src/kubelet-client/'],
  ['src/openapi/', 'src/admission/', 'src/auth/'],
  ['src/api/', 'src/nodeagent/', 'src/audit/'],
  ['src/controllers/', 'src/client/'],
  ['src/http/'],
  ['src/cluster.ts'],
  ['src/index.ts', 'src/cli/', 'src/testing/'],
];

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `src/util/` matches the folder's files, `src/clock.ts` the file alone. */
const pattern = (entry) => (entry.endsWith('/') ? `^${escapeRegExp(entry)}` : `^${escapeRegExp(entry)}$`);
const label = (entry) =>
  entry
    .replace(/^src\//, '')
    .replace(/\/$/, '')
    .replace(/\.ts$/, '');
const anyOf = (entries) => entries.map(pattern);

const upward = LAYERS.flatMap((layer, i) => {
  const above = LAYERS.slice(i + 1).flat();
  if (above.length === 0) return [];
  return layer.map((entry) => ({
    name: `no-upward-import-from-${label(entry)}`,
    comment: `${entry} may import only the layers below it (docs/architecture.md), not ${above.map(label).join(', ')}.`,
    severity: 'error',
    from: { path: pattern(entry) },
    to: { path: anyOf(above) },
  }));
});

const sideways = LAYERS.flatMap((layer) =>
  layer.length < 2
    ? []
    : layer.map((entry) => ({
        name: `no-sideways-import-from-${label(entry)}`,
        comment: `${entry} shares its layer with ${layer.filter((e) => e !== entry).join(', ')}; folders of one layer stay independent of each other.`,
        severity: 'error',
        from: { path: pattern(entry) },
        to: { path: anyOf(layer.filter((e) => e !== entry)) },
      })),
);

module.exports = {
  forbidden: [
    ...upward,
    ...sideways,
    {
      name: 'no-kinds-group-to-other-group',
      comment:
        "A group of src/kinds/ imports its own folder, src/kinds/shared/ and src/kinds/types/, never another group's files. " +
        "The one exception is the core group's public declarations (src/kinds/core/index.ts): events.k8s.io serves the core " +
        "Event kind's objects. A helper two groups need (pod spec rules, PVC rules, Event rules) belongs in src/kinds/shared/.",
      severity: 'error',
      from: { path: '^src/kinds/([^/]+)/', pathNot: '^src/kinds/(shared|types)/' },
      to: { path: '^src/kinds/', pathNot: ['^src/kinds/($1|shared|types)/', '^src/kinds/core/index\\.ts$'] },
    },
    {
      name: 'no-kinds-shared-to-group',
      comment: 'src/kinds/shared/ is below every group: it imports src/kinds/types/ and lower layers only.',
      severity: 'error',
      from: { path: '^src/kinds/shared/' },
      to: { path: '^src/kinds/', pathNot: '^src/kinds/(shared|types)/' },
    },
    {
      name: 'no-kinds-types-to-anything',
      comment: 'src/kinds/types/ is generated from the upstream schema and imports only itself (and zod).',
      severity: 'error',
      from: { path: '^src/kinds/types/' },
      to: { path: '^src/', pathNot: '^src/kinds/types/' },
    },
    {
      name: 'no-engine-to-builtin-kinds',
      comment:
        'The engine and the doors serve any kind the registry holds: above src/kinds/ only cluster.ts and index.ts know the ' +
        'built-in kinds; the rest may use the generated types of src/kinds/types/ (the Scale of /scale, metav1 schemas).',
      severity: 'error',
      from: { path: '^src/(openapi|api|controllers|client|http)/' },
      to: { path: '^src/kinds/', pathNot: '^src/kinds/types/' },
    },
    {
      name: 'no-verb-to-verb',
      comment:
        'A verb of src/api/verbs/ only turns its request into a change for the store (src/api/store/); what two verbs ' +
        'share belongs in the store or beside it in src/api/, never in another verb.',
      severity: 'error',
      from: { path: '^src/api/verbs/([^/]+)$' },
      to: { path: '^src/api/verbs/', pathNot: '^src/api/verbs/$1$' },
    },
    {
      name: 'no-src-to-tests',
      comment: 'The library never imports its tests, examples, benchmarks or scripts.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|examples|bench|scripts)/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycle between modules.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-folders',
      comment: 'No import cycle between folders (a folder counts with its subfolders).',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
