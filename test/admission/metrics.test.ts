import { describe, expect, it } from 'vitest';
import { buildAdmissionChain } from '../../src/admission/chain.js';
import type { AdmissionAttributes, AdmissionCluster } from '../../src/admission/attributes.js';
import type { AdmissionPlugin } from '../../src/admission/plugin.js';
import { createCluster } from '../../src/cluster.js';
import { ConfigMapKind } from '../../src/kinds/index.js';
import { forbidden } from '../../src/machinery/errors.js';
import { MetricsRegistry } from '../../src/metrics/registry.js';

const STEP = 'apiserver_admission_step_admission_duration_seconds';
const SUMMARY = 'apiserver_admission_step_admission_duration_seconds_summary';
const PLUGIN = 'apiserver_admission_controller_admission_duration_seconds';

describe('admission metrics of a cluster', () => {
  it('times both steps of an allowed create, and the admit step of one NamespaceLifecycle refuses', async () => {
    const c = await createCluster();
    const allowed = { type: 'admit', operation: 'CREATE', rejected: 'false' };
    const before = await c.metrics.value(SUMMARY, allowed);
    await c.client.resource(ConfigMapKind).create({ metadata: { name: 'a', namespace: 'default' } });
    expect(await c.metrics.value(SUMMARY, allowed)).toBe(before + 1);
    expect(await c.metrics.value(STEP, allowed)).toBe(before + 1);
    expect(await c.metrics.value(SUMMARY, { type: 'validate', operation: 'CREATE', rejected: 'false' })).toBeGreaterThan(0);

    const refused = { type: 'admit', operation: 'CREATE', rejected: 'true' };
    expect(await c.metrics.value(SUMMARY, refused)).toBe(0);
    await expect(c.client.resource(ConfigMapKind).create({ metadata: { name: 'b', namespace: 'nowhere' } })).rejects.toThrow('namespaces "nowhere" not found');
    expect(await c.metrics.value(SUMMARY, refused)).toBe(1);
    expect(await c.metrics.value(STEP, refused)).toBe(1);
    expect(await c.metrics.value(PLUGIN, { name: 'NamespaceLifecycle', ...refused })).toBe(1);
    // The refusal stopped the request: no validate step for it.
    expect(await c.metrics.value(SUMMARY, { type: 'validate', rejected: 'true' })).toBe(0);
    await c.close();
  });

  it('labels updates and deletes with their operation', async () => {
    const c = await createCluster();
    await c.client.resource(ConfigMapKind).create({ metadata: { name: 'a', namespace: 'default' } });
    const updates = await c.metrics.value(SUMMARY, { type: 'validate', operation: 'UPDATE', rejected: 'false' });
    await c.client.resource(ConfigMapKind).update({ metadata: { name: 'a', namespace: 'default' }, data: { k: 'v' } });
    expect(await c.metrics.value(SUMMARY, { type: 'validate', operation: 'UPDATE', rejected: 'false' })).toBe(updates + 1);
    const deletes = await c.metrics.value(SUMMARY, { operation: 'DELETE' });
    await c.client.resource(ConfigMapKind).delete('a', { namespace: 'default' });
    expect(await c.metrics.value(SUMMARY, { type: 'admit', operation: 'DELETE', rejected: 'false' })).toBeGreaterThan(0);
    expect(await c.metrics.value(SUMMARY, { operation: 'DELETE' })).toBeGreaterThan(deletes);
    await c.close();
  });

  it('exposes the summary without quantiles, the histograms with their buckets and stability', async () => {
    const c = await createCluster();
    await c.client.resource(ConfigMapKind).create({ metadata: { name: 'a', namespace: 'default' } });
    const text = await c.metrics.text();
    expect(text).toContain(`# HELP ${SUMMARY} [ALPHA] Admission sub-step latency summary in seconds`);
    expect(text).toContain(`# TYPE ${SUMMARY} summary`);
    expect(text).toMatch(new RegExp(`${SUMMARY}_count\\{operation="CREATE",rejected="false",type="admit"\\} \\d+`));
    expect(text).not.toContain(`${SUMMARY}{`);
    expect(text).toContain(`# HELP ${STEP} [STABLE] Admission sub-step latency histogram in seconds`);
    expect(text).toContain(`${STEP}_bucket{le="2.5",operation="CREATE",rejected="false",type="admit"}`);
    expect(text).toContain(`# HELP ${PLUGIN} [STABLE] Admission controller latency histogram in seconds`);
    expect(text).toContain(`${PLUGIN}_bucket{le="0.005",name="NamespaceLifecycle",operation="CREATE",rejected="false",type="admit"}`);
    await c.close();
  });

  it('counts nothing with metrics off', async () => {
    const c = await createCluster({ metrics: false });
    await c.client.resource(ConfigMapKind).create({ metadata: { name: 'a', namespace: 'default' } });
    expect(await c.metrics.value(SUMMARY)).toBe(0);
    await c.close();
  });
});

describe('admission metrics of a chain', () => {
  const cluster: AdmissionCluster = { read: async () => undefined, list: async () => [], reservedDomain: 'kubernetes.io' };
  const attributes = (operation: AdmissionAttributes['operation']): AdmissionAttributes => ({
    user: { username: 'u', groups: [] },
    operation,
    kind: { group: '', version: 'v1', kind: 'ConfigMap' },
    resource: { group: '', version: 'v1', resource: 'configmaps' },
    subresource: '',
    namespace: 'default',
    name: 'x',
    object: { metadata: { name: 'x' } },
    oldObject: undefined,
    dryRun: false,
  });
  // Two plugins implemented in place of built-in ones: one handles creates only and refuses in
  // validation those named "x"; the other handles every operation.
  const strict: AdmissionPlugin = {
    name: 'NamespaceLifecycle',
    operations: ['CREATE'],
    validate(a) {
      if (a.operation === 'CREATE') throw forbidden({ group: '', resource: 'configmaps' }, a.name, 'no');
    },
  };
  const everything: AdmissionPlugin = { name: 'ServiceAccount', admit() {}, validate() {} };

  it('times a plugin only for the operations it handles, and a refusal as rejected', async () => {
    const metrics = new MetricsRegistry();
    const chain = buildAdmissionChain({}, [strict, everything], metrics);
    // A plugin that refuses synchronously: the step throws at once, no promise made.
    expect(() => chain.validate(attributes('CREATE'), cluster)).toThrow('no');
    await chain.validate(attributes('CONNECT'), cluster);
    expect(await metrics.value(PLUGIN, { name: 'NamespaceLifecycle', type: 'validate', operation: 'CREATE', rejected: 'true' })).toBe(1);
    // The refusal came first: the next plugin never ran.
    expect(await metrics.value(PLUGIN, { name: 'ServiceAccount', operation: 'CREATE' })).toBe(0);
    expect(await metrics.value(PLUGIN, { name: 'NamespaceLifecycle', operation: 'CONNECT' })).toBe(0);
    expect(await metrics.value(PLUGIN, { name: 'ServiceAccount', type: 'validate', operation: 'CONNECT', rejected: 'false' })).toBe(1);
    expect(await metrics.value(SUMMARY, { type: 'validate', operation: 'CREATE', rejected: 'true' })).toBe(1);
    expect(await metrics.value(SUMMARY, { type: 'validate', operation: 'CONNECT', rejected: 'false' })).toBe(1);
  });

  it('answers without a promise while every plugin does, and awaits the first that answers one before the rest', async () => {
    const metrics = new MetricsRegistry();
    const ran: string[] = [];
    const slow: AdmissionPlugin = {
      name: 'NamespaceLifecycle',
      async admit() {
        await Promise.resolve();
        ran.push('slow');
      },
    };
    const quick: AdmissionPlugin = { name: 'ServiceAccount', admit: () => void ran.push('quick') };
    expect(buildAdmissionChain({}, [quick], metrics).admit(attributes('CREATE'), cluster)).toBeUndefined();
    const pending = buildAdmissionChain({}, [slow, quick], metrics).admit(attributes('CREATE'), cluster);
    expect(pending).toBeInstanceOf(Promise);
    expect(ran).toEqual(['quick']);
    await pending;
    expect(ran).toEqual(['quick', 'slow', 'quick']);
    expect(await metrics.value(PLUGIN, { name: 'NamespaceLifecycle', type: 'admit', operation: 'CREATE', rejected: 'false' })).toBe(1);
    expect(await metrics.value(PLUGIN, { name: 'ServiceAccount', type: 'admit', operation: 'CREATE', rejected: 'false' })).toBe(2);
    expect(await metrics.value(SUMMARY, { type: 'admit', operation: 'CREATE', rejected: 'false' })).toBe(2);
  });

  it('times a refusal that comes after a plugin answered a promise', async () => {
    const metrics = new MetricsRegistry();
    const slow: AdmissionPlugin = { name: 'NamespaceLifecycle', admit: () => Promise.resolve() };
    const refusing: AdmissionPlugin = {
      name: 'ServiceAccount',
      admit(a) {
        throw forbidden({ group: '', resource: 'configmaps' }, a.name, 'late');
      },
    };
    await expect(buildAdmissionChain({}, [refusing, slow], metrics).admit(attributes('CREATE'), cluster) as Promise<void>).rejects.toThrow('late');
    expect(await metrics.value(SUMMARY, { type: 'admit', operation: 'CREATE', rejected: 'true' })).toBe(1);
    expect(await metrics.value(PLUGIN, { name: 'NamespaceLifecycle', type: 'admit', operation: 'CREATE', rejected: 'false' })).toBe(1);
    expect(await metrics.value(PLUGIN, { name: 'ServiceAccount', type: 'admit', operation: 'CREATE', rejected: 'true' })).toBe(1);
  });

  it('times no step of an operation no plugin handles', async () => {
    const metrics = new MetricsRegistry();
    const chain = buildAdmissionChain({ disable: ['ServiceAccount'] }, [strict, everything], metrics);
    await chain.admit(attributes('DELETE'), cluster);
    expect(await metrics.value(SUMMARY)).toBe(0);
    await chain.admit(attributes('CREATE'), cluster);
    expect(await metrics.value(SUMMARY, { type: 'admit', operation: 'CREATE', rejected: 'false' })).toBe(1);
  });
});
