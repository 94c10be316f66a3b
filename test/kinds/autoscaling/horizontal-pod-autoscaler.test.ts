import { describe, expect, it } from 'vitest';
import { HorizontalPodAutoscalerKind, type HorizontalPodAutoscaler } from '../../../src/kinds/autoscaling/index.js';
import type { KubeObject } from '../../../src/schema/define-kind.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();
const v2 = () => cluster.client.resource(HorizontalPodAutoscalerKind);
const v1 = () => cluster.client.resource({ group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' });

const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

/** A v2 HPA `web` for Deployment web, changed by `patch`. */
function web(patch: (h: HorizontalPodAutoscaler) => void = () => {}): HorizontalPodAutoscaler {
  const h: HorizontalPodAutoscaler = { metadata: { name: 'web' }, spec: { scaleTargetRef: { ...ref }, maxReplicas: 10 } };
  patch(h);
  return h;
}

async function rejected(h: HorizontalPodAutoscaler): Promise<string[]> {
  const status = await statusOf(() => v2().create(h));
  expect(status.code).toBe(422);
  return (status.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
}

const behaviorAnnotation = (scaleDownWindow: string) =>
  `{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15},{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null},"ScaleDown":{"StabilizationWindowSeconds":${scaleDownWindow},"SelectPolicy":"Max","Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null}}`;

describe('HorizontalPodAutoscaler defaults (autoscaling/v2)', () => {
  it('defaults minReplicas, an 80% CPU metric and the zero status; sets no generation', async () => {
    const created = await v2().create(web());
    expect(created.metadata!.generation).toBeUndefined();
    expect(created.spec).toEqual({
      scaleTargetRef: ref,
      maxReplicas: 10,
      minReplicas: 1,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
    });
    expect(created.status).toEqual({ desiredReplicas: 0 });
  });

  it('fills an incomplete behavior with the scale-up and scale-down defaults, and canonical quantities', async () => {
    const created = await v2().create(
      web((h) => {
        h.spec.behavior = { scaleDown: { stabilizationWindowSeconds: 60, tolerance: '0.050' } };
        h.spec.metrics = [{ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '1500m' } } }];
      }),
    );
    expect(created.spec.behavior).toEqual({
      scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }], tolerance: '50m' },
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      },
    });
    expect(created.spec.metrics![0]!.pods!.target.averageValue).toBe('1500m');
  });

  it('drops the v1 round-trip annotations a v2 object is sent with', async () => {
    const created = await v2().create(web((h) => (h.metadata!.annotations = { 'autoscaling.alpha.kubernetes.io/metrics': '[]', team: 'a' })));
    expect(created.metadata!.annotations).toEqual({ team: 'a' });
  });
});

describe('HorizontalPodAutoscaler at autoscaling/v1', () => {
  it('stores a v1 object with its CPU target as a v2 metric, 80% when none is given', async () => {
    await v1().create({ metadata: { name: 'a' }, spec: { scaleTargetRef: ref, maxReplicas: 3, targetCPUUtilizationPercentage: 50 } });
    await v1().create({ metadata: { name: 'b' }, spec: { scaleTargetRef: ref, maxReplicas: 3 } });
    const a = await v2().get('a');
    expect(a.spec).toEqual({
      scaleTargetRef: ref,
      minReplicas: 1,
      maxReplicas: 3,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
    });
    expect((await v2().get('b')).spec.metrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
    ]);
    const b1 = await v1().get('b');
    expect(b1).toMatchObject({
      apiVersion: 'autoscaling/v1',
      spec: { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 80 },
      status: { currentReplicas: 0, desiredReplicas: 0 },
    });
    expect(b1.metadata!.annotations).toBeUndefined();
  });

  it('shows the v2-only spec and status of a v2 object in annotations of the v1 object', async () => {
    const created = await v2().create(
      web((h) => {
        h.spec.behavior = { scaleDown: { stabilizationWindowSeconds: 60 } };
        h.spec.metrics = [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
          {
            type: 'Pods',
            pods: { metric: { name: 'qps', selector: { matchLabels: { b: '2', a: '1' } } }, target: { type: 'AverageValue', averageValue: '1k' } },
          },
          {
            type: 'Object',
            object: {
              describedObject: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name: 'main' },
              metric: { name: 'hits' },
              target: { type: 'AverageValue', averageValue: '2' },
            },
          },
        ];
      }),
    );
    await v2().updateStatus({
      ...created,
      status: {
        currentReplicas: 2,
        desiredReplicas: 3,
        currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 42, averageValue: '200m' } } }],
        conditions: [{ type: 'AbleToScale', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'ReadyForNewScale' }],
      },
    });
    const old = await v1().get('web');
    expect(old.spec).toEqual({ scaleTargetRef: ref, minReplicas: 1, maxReplicas: 10, targetCPUUtilizationPercentage: 70 });
    expect(old.status).toEqual({ currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 42 });
    expect(old.metadata!.annotations).toEqual({
      'autoscaling.alpha.kubernetes.io/behavior': behaviorAnnotation('60'),
      'autoscaling.alpha.kubernetes.io/conditions':
        '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z","reason":"ReadyForNewScale"}]',
      'autoscaling.alpha.kubernetes.io/current-metrics':
        '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":42,"currentAverageValue":"200m"}}]',
      'autoscaling.alpha.kubernetes.io/metrics':
        '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"1k","selector":{"matchLabels":{"a":"1","b":"2"}}}},{"type":"Object","object":{"target":{"kind":"Ingress","name":"main","apiVersion":"networking.k8s.io/v1"},"metricName":"hits","targetValue":"0","averageValue":"2"}}]',
    });
    expect(Object.keys(old.metadata!.annotations!)).toEqual([
      'autoscaling.alpha.kubernetes.io/behavior',
      'autoscaling.alpha.kubernetes.io/conditions',
      'autoscaling.alpha.kubernetes.io/current-metrics',
      'autoscaling.alpha.kubernetes.io/metrics',
    ]);
  });

  it('round-trips v2 → v1 → v2: a v1 client writing back what it read keeps the v2 fields', async () => {
    const created = await v2().create(
      web((h) => {
        h.spec.behavior = { scaleUp: { stabilizationWindowSeconds: 30, selectPolicy: 'Min' } };
        h.spec.metrics = [
          { type: 'External', external: { metric: { name: 'queue', selector: { matchLabels: { q: 'jobs' } } }, target: { type: 'Value', value: '30' } } },
          { type: 'ContainerResource', containerResource: { name: 'memory', container: 'app', target: { type: 'AverageValue', averageValue: '512Mi' } } },
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
        ];
      }),
    );
    const asV1 = await v1().get('web');
    const relabeled = await v1().update({ ...asV1, metadata: { ...asV1.metadata, labels: { touched: 'yes' } } });
    expect(relabeled.metadata!.annotations).toEqual(asV1.metadata!.annotations);
    const back = await v2().get('web');
    expect(back.spec).toEqual(created.spec);
    expect(back.metadata!.labels).toEqual({ touched: 'yes' });
    expect(back.metadata!.annotations).toBeUndefined();
  });

  it('round-trips v1 → v2 → v1: what a v2 client writes back reads the same at v1', async () => {
    const created = await v1().create({
      metadata: {
        name: 'old',
        annotations: {
          keep: 'me',
          'autoscaling.alpha.kubernetes.io/metrics': '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]',
          'autoscaling.alpha.kubernetes.io/behavior': '{"ScaleDown":{"StabilizationWindowSeconds":120}}',
        },
      },
      spec: { scaleTargetRef: ref, minReplicas: 2, maxReplicas: 4, targetCPUUtilizationPercentage: 75 },
    });
    const stored = await v2().get('old');
    expect(stored.metadata!.annotations).toEqual({ keep: 'me' });
    expect(stored.spec.metrics).toEqual([
      { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 75 } } },
    ]);
    expect(stored.spec.behavior!.scaleDown).toEqual({
      stabilizationWindowSeconds: 120,
      selectPolicy: 'Max',
      policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
    });
    await v2().update(stored);
    const again = await v1().get('old');
    expect(again.spec).toEqual(created.spec);
    expect(again.metadata!.annotations).toEqual({
      'autoscaling.alpha.kubernetes.io/behavior': behaviorAnnotation('120'),
      'autoscaling.alpha.kubernetes.io/metrics': '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]',
      keep: 'me',
    });
  });

  it('ignores a behavior annotation that is no JSON of the internal type', async () => {
    await v1().create({
      metadata: { name: 'odd', annotations: { 'autoscaling.alpha.kubernetes.io/behavior': '{"ScaleUp":{"StabilizationWindowSeconds":"soon"}}' } },
      spec: { scaleTargetRef: ref, maxReplicas: 4 },
    });
    const stored = await v2().get('odd');
    expect(stored.spec.behavior).toBeUndefined();
    expect(stored.metadata!.annotations).toBeUndefined();
  });
});

describe('HorizontalPodAutoscaler validation', () => {
  it('checks the replica bounds and the target reference', async () => {
    expect(
      await rejected(
        web((h) => {
          h.spec.minReplicas = 0;
          h.spec.maxReplicas = 0;
          h.spec.scaleTargetRef = { kind: '', name: 'a/b' };
        }),
      ),
    ).toEqual([
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
      'spec.maxReplicas: Invalid value: 0: must be greater than 0',
      'spec.scaleTargetRef.kind: Required value',
      'spec.scaleTargetRef.name: Invalid value: "a/b": may not contain \'/\'',
      'spec.scaleTargetRef.apiVersion: Invalid value: "": apiVersion must specify API group',
      'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
    ]);
    expect(await rejected(web((h) => (h.spec.minReplicas = 11)))).toEqual([
      'spec.maxReplicas: Invalid value: 10: must be greater than or equal to `minReplicas`',
    ]);
    expect(await rejected(web((h) => (h.spec.scaleTargetRef.apiVersion = 'a/b/c')))).toEqual([
      'spec.scaleTargetRef.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
    ]);
    const rc = await v2().create(web((h) => (h.spec.scaleTargetRef = { apiVersion: 'v1', kind: 'ReplicationController', name: 'rc' })));
    expect(rc.spec.scaleTargetRef.kind).toBe('ReplicationController');
  });

  it('checks each metric source', async () => {
    const lines = await rejected(
      web((h) => {
        h.spec.metrics = [
          { type: 'Magic' },
          { type: 'Pods', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
          { type: 'Resource', resource: { name: '', target: { type: 'Most' } } },
          { type: 'Object', object: { describedObject: { kind: 'Service', name: 's' }, metric: { name: '..' }, target: { type: 'Value', value: '0' } } },
          { type: 'External', external: { metric: { name: 'm' }, target: { type: 'Value', value: '1', averageValue: '2' } } },
          { type: 'ContainerResource', containerResource: { name: 'gpu', container: 'App', target: { type: 'Utilization', averageUtilization: 0 } } },
        ];
      }),
    );
    expect(lines).toEqual([
      'spec.metrics[0].type: Unsupported value: "Magic": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
      // An unknown type is reported twice, as validateMetricSpec does.
      'spec.metrics[0].type: Unsupported value: "Magic": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
      'spec.metrics[1].pods: Required value: must populate information for the given metric source',
      'spec.metrics[2].resource.name: Required value: must specify a resource name',
      'spec.metrics[2].resource.target.type: Invalid value: "Most": must be either Utilization, Value, or AverageValue',
      'spec.metrics[2].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization',
      'spec.metrics[3].object.metric.name: Invalid value: "..": may not be \'..\'',
      'spec.metrics[3].object.target.value: Invalid value: "0": must be positive',
      'spec.metrics[4].external.target.value: Forbidden: may not set both a target value for metric and a per-pod target',
      'spec.metrics[5].containerResource.name: Invalid value: "gpu": must be a standard resource type or fully qualified',
      "spec.metrics[5].containerResource.container: Invalid value: \"App\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      'spec.metrics[5].containerResource.target.averageUtilization: Invalid value: 0: must be greater than 0',
    ]);
  });

  it('checks the scaling behavior', async () => {
    expect(
      await rejected(
        web((h) => {
          h.spec.behavior = {
            scaleUp: { stabilizationWindowSeconds: 3601, selectPolicy: 'Random', policies: [{ type: 'Nodes', value: 0, periodSeconds: 1801 }] },
            scaleDown: { stabilizationWindowSeconds: -1, policies: [], tolerance: '-0.1' },
          };
        }),
      ),
    ).toEqual([
      'spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600',
      'spec.behavior.scaleUp.selectPolicy: Unsupported value: "Random": supported values: "Disabled", "Max", "Min"',
      'spec.behavior.scaleUp.policies[0].type: Unsupported value: "Nodes": supported values: "Percent", "Pods"',
      'spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800',
      'spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: -1: must be greater than or equal to zero',
      'spec.behavior.scaleDown.policies: Required value: must specify at least one Policy',
      'spec.behavior.scaleDown.tolerance: Invalid value: "-100m": must be greater than or equal to 0',
    ]);
  });

  it('validates updates at either version, and status through /status', async () => {
    const created = await v2().create(web());
    const s = await statusOf(() => v1().patch('web', { spec: { maxReplicas: 0 } }, { type: 'merge' }));
    expect(s.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.maxReplicas: Invalid value: 0: must be greater than 0',
      'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`',
    ]);
    const bad = await statusOf(() => v2().updateStatus({ ...created, status: { desiredReplicas: -1, currentReplicas: -2 } }));
    expect(bad.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'status.currentReplicas: Invalid value: -2: must be greater than or equal to 0',
      'status.desiredReplicas: Invalid value: -1: must be greater than or equal to 0',
    ]);
    const kept = await v2().update({ ...created, status: { desiredReplicas: 9 } });
    expect(kept.status).toEqual({ desiredReplicas: 0 });
  });

  it.each([
    ['a string as maxReplicas', { metadata: { name: 'x' }, spec: { scaleTargetRef: ref, maxReplicas: 'ten' } }],
    [
      'a malformed quantity',
      {
        metadata: { name: 'x' },
        spec: {
          scaleTargetRef: ref,
          maxReplicas: 2,
          metrics: [{ type: 'Pods', pods: { metric: { name: 'q' }, target: { type: 'AverageValue', averageValue: 'lots' } } }],
        },
      },
    ],
    ['a list as scaleTargetRef', { metadata: { name: 'x' }, spec: { scaleTargetRef: [ref], maxReplicas: 2 } }],
  ])('answers %s with a 4xx and stores nothing', async (_, body) => {
    const s = await statusOf(() => v2().create(body as unknown as HorizontalPodAutoscaler));
    expect(s.code).toBeGreaterThanOrEqual(400);
    expect(s.code).toBeLessThan(500);
    expect((await v2().list()).items).toEqual([]);
  });
});

describe('HorizontalPodAutoscaler columns and names', () => {
  async function rows(version: string): Promise<{ columnDefinitions: { name: string; type: string }[]; rows: { cells: unknown[] }[] }> {
    const res = await cluster.fetch(
      new Request(`http://memkube/apis/autoscaling/${version}/namespaces/default/horizontalpodautoscalers`, {
        headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
      }),
    );
    return (await res.json()) as never;
  }

  it('prints Reference, Targets, MinPods, MaxPods, Replicas, Age the same at v2 and v1', async () => {
    const created = await v2().create(
      web((h) => {
        h.spec.metrics = [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
          { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } } },
          { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '5' } } },
        ];
      }),
    );
    await v2().updateStatus({
      ...created,
      status: {
        currentReplicas: 3,
        desiredReplicas: 3,
        currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 42 } } }],
      },
    });
    const t = await rows('v2');
    expect(t.columnDefinitions.map((c) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Reference', 'string'],
      ['Targets', 'string'],
      ['MinPods', 'string'],
      ['MaxPods', 'string'],
      ['Replicas', 'string'],
      ['Age', 'string'],
    ]);
    const expected = ['web', 'Deployment/web', 'cpu: 42%/70%, memory: <unknown>/1Gi + 1 more...', '1', 10, 3, '0s'];
    expect(t.rows[0]!.cells).toEqual(expected);
    expect((await rows('v1')).rows[0]!.cells).toEqual(expected);
  });

  it('is served at v2 (preferred) and v1, with the short name hpa in the category all', async () => {
    const group = (await (await cluster.fetch(new Request('http://memkube/apis/autoscaling'))).json()) as KubeObject;
    expect(group).toMatchObject({ versions: [{ version: 'v2' }, { version: 'v1' }], preferredVersion: { version: 'v2' } });
    for (const version of ['v2', 'v1']) {
      const list = (await (await cluster.fetch(new Request(`http://memkube/apis/autoscaling/${version}`))).json()) as { resources: { name: string }[] };
      expect(list.resources.find((r) => r.name === 'horizontalpodautoscalers')).toMatchObject({ shortNames: ['hpa'], categories: ['all'] });
      expect(list.resources.map((r) => r.name)).toContain('horizontalpodautoscalers/status');
    }
  });
});
