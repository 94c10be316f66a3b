/**
 * A kind of your own, declared in TypeScript: a Widget with a spec and a status, the defaults and
 * value checks of its zod schema and a rule of its own, served by a cluster created with it. Creates one (defaults applied), is refused
 * an invalid one, reports status through the status subresource and lists them.
 * Run with `npx tsx examples/define-your-own-kind.ts`; docs/guides/define-your-own-kind.md explains it.
 */
import { z } from 'zod';
import { ApiError, createCluster, defineKind, fieldError, ObjectMetaSchema } from 'memkube';

const WidgetSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.optional(),
  spec: z.object({
    size: z.int32().min(1).max(10).default(1),
    color: z.enum(['red', 'blue', 'gold']).default('red'),
  }),
  status: z
    .object({
      ready: z.boolean().optional(),
      observedGeneration: z.int().optional(),
    })
    .optional(),
});

/** The object type every Widget call of the client takes and answers (a field with a default may be left out). */
export type Widget = z.input<typeof WidgetSchema>;

export const WidgetKind = defineKind<Widget>({
  group: 'toys.example.com',
  kind: 'Widget',
  plural: 'widgets',
  shortNames: ['wd'],
  scope: 'Namespaced',
  versions: [{ name: 'v1', schema: WidgetSchema, served: true, storage: true }],
  statusSubresource: true,
  strategy: {
    // A rule across fields, which a schema cannot state.
    validate: (w) => (w.spec.color === 'gold' && w.spec.size !== 1 ? [fieldError.invalid('spec.color', 'gold', 'gold widgets come in size 1 only')] : []),
  },
  printerColumns: [
    { name: 'Size', type: 'integer', value: (w) => w.spec.size },
    { name: 'Color', type: 'string', value: (w) => w.spec.color },
    { name: 'Ready', type: 'boolean', value: (w) => w.status?.ready },
  ],
});

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const cluster = await createCluster({ kinds: [WidgetKind] });
  try {
    const widgets = cluster.client.resource(WidgetKind);

    const small = await widgets.create({ metadata: { name: 'small', namespace: 'default' }, spec: {} });
    log(`created ${small.metadata?.name}: size=${small.spec.size} color=${small.spec.color}, generation ${small.metadata?.generation}`);

    for (const spec of [{ size: 20 }, { size: 2, color: 'gold' as const }]) {
      try {
        await widgets.create({ metadata: { name: 'huge', namespace: 'default' }, spec });
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        log(`refused: ${e.code} ${e.reason}: ${e.message}`);
      }
    }

    // What a controller does once it has acted on the spec: report through /status.
    const reported = await widgets.updateStatus({ ...small, status: { ready: true, observedGeneration: small.metadata?.generation } });
    log(`status of ${reported.metadata?.name}: ready=${reported.status?.ready}, observedGeneration=${reported.status?.observedGeneration}`);

    await widgets.create({ metadata: { name: 'blue', namespace: 'default' }, spec: { color: 'blue', size: 4 } });
    const listed = await widgets.list({ namespace: 'default' });
    const rows = listed.items.map((w) => `${w.metadata?.name} (size ${w.spec.size}, ${w.spec.color}${w.status?.ready ? ', ready' : ''})`);
    log(`listed ${listed.items.length} widgets: ${rows.join(', ')}`);
  } finally {
    await cluster.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main(console.log);
}
