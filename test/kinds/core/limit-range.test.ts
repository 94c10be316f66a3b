import { describe, expect, it } from 'vitest';
import { LimitRangeKind, type LimitRange } from '../../../src/kinds/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';
import { causeLines, tableOf } from './table.js';

const cluster = useTestCluster();
const lrs = () => cluster.client.resource(LimitRangeKind);

function lr(limits: NonNullable<LimitRange['spec']>['limits'], name = 'limits'): LimitRange {
  return { metadata: { name }, spec: { limits } };
}

async function causes(l: LimitRange) {
  const status = await statusOf(() => lrs().create(l));
  expect(status.code).toBe(422);
  return causeLines(status);
}

describe('LimitRange defaults', () => {
  it('defaults a Container item: default from max, defaultRequest from default, else from min', async () => {
    const created = await lrs().create(
      lr([{ type: 'Container', max: { cpu: '2', memory: '1024Mi' }, min: { cpu: '100m', 'ephemeral-storage': '1Gi' }, defaultRequest: { memory: '256Mi' } }]),
    );
    expect(created.spec?.limits).toEqual([
      {
        type: 'Container',
        max: { cpu: '2', memory: '1Gi' },
        min: { cpu: '100m', 'ephemeral-storage': '1Gi' },
        default: { cpu: '2', memory: '1Gi' },
        defaultRequest: { memory: '256Mi', cpu: '2', 'ephemeral-storage': '1Gi' },
      },
    ]);
  });

  it('leaves Pod and PersistentVolumeClaim items alone', async () => {
    const created = await lrs().create(
      lr([
        { type: 'Pod', max: { cpu: '2' } },
        { type: 'PersistentVolumeClaim', max: { storage: '10Gi' } },
      ]),
    );
    expect(created.spec?.limits).toEqual([
      { type: 'Pod', max: { cpu: '2' } },
      { type: 'PersistentVolumeClaim', max: { storage: '10Gi' } },
    ]);
  });
});

describe('LimitRange validation', () => {
  it('checks types, duplicates and resource names', async () => {
    expect(await causes(lr([{ type: 'Node' }, { type: 'Container', max: { storage: '1Gi' } }, { type: 'Container' }]))).toEqual([
      'spec.limits[0].type: Invalid value: "Node": must be a standard limit type or fully qualified',
      'spec.limits[1].max[storage]: Invalid value: "storage": must be a standard resource for containers',
      // The defaults copied max into default and defaultRequest before validation.
      'spec.limits[1].default[storage]: Invalid value: "storage": must be a standard resource for containers',
      'spec.limits[1].defaultRequest[storage]: Invalid value: "storage": must be a standard resource for containers',
      'spec.limits[2].type: Duplicate value: "Container"',
    ]);
  });

  it("forbids default and defaultRequest when the type is 'Pod'", async () => {
    expect(await causes(lr([{ type: 'Pod', default: { cpu: '1' }, defaultRequest: { cpu: '1' } }]))).toEqual([
      "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'",
      "spec.limits[0].defaultRequest: Forbidden: may not be specified when `type` is 'Pod'",
    ]);
  });

  it('requires a min or max storage for PersistentVolumeClaim items', async () => {
    expect(await causes(lr([{ type: 'PersistentVolumeClaim', max: { cpu: '1' } }]))).toEqual([
      'spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
    ]);
  });

  it('orders min, defaultRequest, default and max', async () => {
    expect(await causes(lr([{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }]))).toEqual([
      'spec.limits[0].min[cpu]: Invalid value: 2: min value 2 is greater than max value 1',
      'spec.limits[0].defaultRequest[cpu]: Invalid value: 1: min value 2 is greater than default request value 1',
      'spec.limits[0].default[cpu]: Invalid value: 2: min value 2 is greater than default value 1',
    ]);
    expect(await causes(lr([{ type: 'Container', default: { memory: '1Gi' }, defaultRequest: { memory: '2Gi' } }]))).toEqual([
      'spec.limits[0].defaultRequest[memory]: Invalid value: 2Gi: default request value 2Gi is greater than default limit value 1Gi',
    ]);
    expect(await causes(lr([{ type: 'Container', default: { memory: '2Gi' }, max: { memory: '1Gi' } }]))).toEqual([
      'spec.limits[0].defaultRequest[memory]: Invalid value: 2Gi: default request value 2Gi is greater than max value 1Gi',
      'spec.limits[0].default[memory]: Invalid value: 1Gi: default value 2Gi is greater than max value 1Gi',
    ]);
  });

  it('checks maxLimitRequestRatio against 1 and max/min', async () => {
    expect(await causes(lr([{ type: 'Container', maxLimitRequestRatio: { cpu: '500m' } }]))).toEqual([
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: 500m: ratio 500m is less than 1',
    ]);
    expect(await causes(lr([{ type: 'Pod', min: { cpu: '1' }, max: { cpu: '2' }, maxLimitRequestRatio: { cpu: '3' } }]))).toEqual([
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: 3: ratio 3 is greater than max/min = 2.000000',
    ]);
  });

  it('wants default and defaultRequest equal for resources that may not overcommit', async () => {
    expect(await causes(lr([{ type: 'Container', default: { 'example.com/gpu': '2' }, defaultRequest: { 'example.com/gpu': '1' } }]))).toEqual([
      'spec.limits[0].defaultRequest[example.com/gpu]: Invalid value: 1: default value 2 must equal to defaultRequest value 1 in example.com/gpu',
    ]);
  });

  it('validates updates and is created by PUT', async () => {
    const created = await lrs().update(lr([{ type: 'Container', max: { cpu: '1' } }], 'put'));
    const status = await statusOf(() =>
      lrs().update({
        ...created,
        spec: { limits: [{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' }, default: { cpu: '1' }, defaultRequest: { cpu: '1' } }] },
      }),
    );
    expect(status.code).toBe(422);
  });
});

describe('LimitRange printing', () => {
  it('prints Name and Created At, without Age', async () => {
    await lrs().create(lr([{ type: 'Container', max: { cpu: '1' } }]));
    const t = await tableOf(cluster, '/api/v1/namespaces/default/limitranges');
    expect(t.columnDefinitions.map((c) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Created At', 'date'],
    ]);
    expect(t.rows[0]!.cells).toEqual(['limits', '2026-01-01T00:00:00Z']);
  });
});
