/**
 * Figure: a CustomResourceDefinition installed (until Established) and 1,000 of its custom
 * resources created in-process, against 1,000 ConfigMaps created in a fresh cluster the same way.
 * Both objects carry about 1 KB of JSON. No target: the ratio shows what a custom resource costs
 * over a built-in kind (its schema at work: pruning, defaulting, validation, CEL rules).
 */
import type { KubeObject } from '../../src/index.js';
import { benchConfigMap } from '../configmap.js';
import { figure, interleave, type Suite } from '../figure.js';

const OBJECTS = 1000;

const template = benchConfigMap('template');
const payload = template.data;

/** The definition: a spec with a map of strings (the same 1 KB as a ConfigMap's data), and a few typed fields. */
const DEFINITION = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.bench.example.com' },
  spec: {
    group: 'bench.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['size'],
                properties: {
                  size: { type: 'integer', minimum: 0, maximum: 100 },
                  mode: { type: 'string', enum: ['fast', 'safe'], default: 'safe' },
                  data: { type: 'object', additionalProperties: { type: 'string' } },
                },
                'x-kubernetes-validations': [{ rule: 'self.size <= 100', message: 'size too large' }],
              },
            },
          },
        },
      },
    ],
  },
};

async function timeCreates(run: (cluster: Awaited<ReturnType<typeof import('../../src/index.js').createCluster>>) => Promise<void>): Promise<number> {
  const { createCluster } = await import('../../src/index.js');
  const cluster = await createCluster();
  try {
    const t0 = performance.now();
    await run(cluster);
    return performance.now() - t0;
  } finally {
    await cluster.close();
  }
}

/** The CRD suite. */
export const crdSuite: Suite = {
  name: 'crd',
  figures: [{ id: 'crd-install-create', title: 'CRD install + 1,000 custom resource creates' }],
  async run(rounds) {
    const { ours, baseline } = await interleave(
      rounds,
      () =>
        timeCreates(async (cluster) => {
          await cluster.client.resource({ group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' }).create(DEFINITION);
          await cluster.settle();
          const widgets = cluster.client.resource({ group: 'bench.example.com', version: 'v1', resource: 'widgets' });
          for (let i = 0; i < OBJECTS; i++) {
            await widgets.create(
              { apiVersion: 'bench.example.com/v1', kind: 'Widget', metadata: { name: `w-${i}` }, spec: { size: i % 100, data: payload } } as KubeObject,
              {
                namespace: 'default',
              },
            );
          }
        }),
      () =>
        timeCreates(async (cluster) => {
          const cms = cluster.client.resource({ version: 'v1', resource: 'configmaps' });
          for (let i = 0; i < OBJECTS; i++) await cms.create({ ...template, metadata: { name: `c-${i}` } } as KubeObject, { namespace: 'default' });
        }),
    );
    return [
      figure(
        {
          id: 'crd-install-create',
          title: 'CRD install + 1,000 custom resource creates (in-process)',
          unit: 'ms',
          baselineName: '1,000 ConfigMap creates in a fresh cluster',
          note: 'both ~1 KB objects; the custom resource has a typed schema with a default and a CEL rule',
        },
        ours,
        baseline,
      ),
    ];
  },
};
