/** A Pod's `binding` and `eviction` subresources, through the engine and over HTTP. */
import { describe, expect, it } from 'vitest';
import { ADMIN_USER } from '../../../../src/client/client.js';
import { PodKind, type Pod } from '../../../../src/kinds/core/index.js';
import { defineKind } from '../../../../src/schema/define-kind.js';
import { PodDisruptionBudget as PdbSchema, type PodDisruptionBudget } from '../../../../src/kinds/types/policy-v1.js';
import type { ApiResponse } from '../../../../src/machinery/request.js';
import { builtinKinds } from '../../../../src/kinds/index.js';
import { statusOf, useServedCluster } from '../../../support/cluster.js';

/** A PodDisruptionBudget store, unless the cluster serves the real kind already. */
const BudgetKind = defineKind<PodDisruptionBudget>({
  group: 'policy',
  kind: 'PodDisruptionBudget',
  plural: 'poddisruptionbudgets',
  scope: 'Namespaced',
  statusSubresource: true,
  versions: [{ name: 'v1', schema: PdbSchema(), served: true, storage: true }],
});
const servesBudgets = builtinKinds.some((k) => k.group === 'policy' && k.plural === 'poddisruptionbudgets');
const served = useServedCluster(servesBudgets ? {} : { kinds: [...builtinKinds, BudgetKind] });
const pods = () => served.cluster.client.resource(PodKind);
const budgets = () => served.cluster.client.resource(BudgetKind);

function pod(name: string, change: (p: Pod) => void = () => {}): Pod {
  const p: Pod = { metadata: { name, labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
  change(p);
  return p;
}

/** POSTs `body` to a pod's subresource through the engine. */
function post(name: string, sub: 'binding' | 'eviction', body: unknown, namespace = 'default'): Promise<ApiResponse> {
  return served.cluster.request({
    verb: 'create',
    resource: { group: '', version: 'v1', resource: 'pods' },
    subresource: sub,
    namespace,
    name,
    body,
    user: ADMIN_USER,
  });
}

/** A running, ready pod (its status written through /status, as a kubelet would). */
async function running(name: string): Promise<void> {
  const created = await pods().create(pod(name));
  await pods().updateStatus({
    ...created,
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  });
}

/** A budget whose status the disruption controller would have written. */
async function budget(name: string, status: PodDisruptionBudget['status']): Promise<void> {
  const created = await budgets().create({ metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } });
  await budgets().updateStatus({ ...created, status: { observedGeneration: created.metadata?.generation ?? 0, ...status } });
}

describe('pods/binding', () => {
  it('assigns the pod to the node, adds the annotations and the PodScheduled condition, and answers 201 Success', async () => {
    await pods().create(pod('b1'));
    const res = await post('b1', 'binding', {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'b1', annotations: { by: 'me' } },
      target: { kind: 'Node', name: 'n1' },
    });
    expect(res.code).toBe(201);
    expect(res.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const bound = await pods().get('b1');
    expect(bound.spec?.nodeName).toBe('n1');
    expect(bound.metadata?.annotations).toEqual({ by: 'me' });
    expect(bound.status?.conditions).toContainEqual({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00Z' });
  });

  it('refuses a pod already on a node with 409, and changes nothing', async () => {
    await pods().create(pod('b2', (p) => (p.spec!.nodeName = 'n0')));
    const before = await pods().get('b2');
    const status = await statusOf(() => post('b2', 'binding', { metadata: { name: 'b2' }, target: { name: 'n1' } }));
    expect(status.code).toBe(409);
    expect(status.message).toBe('Operation cannot be fulfilled on pods/binding "b2": pod b2 is already assigned to node "n0"');
    expect((await pods().get('b2')).metadata?.resourceVersion).toBe(before.metadata?.resourceVersion);
  });

  it('answers 400 when the body names another pod, and 500 (as the real server) for a binding without a target', async () => {
    await pods().create(pod('b3'));
    const other = await statusOf(() => post('b3', 'binding', { metadata: { name: 'x' }, target: { name: 'n1' } }));
    expect([other.code, other.message]).toEqual([400, 'name in URL does not match name in Binding object']);
    const empty = await statusOf(() => post('b3', 'binding', { metadata: { name: 'b3' }, target: { kind: 'Pod' } }));
    expect([empty.code, empty.message]).toEqual([
      500,
      '[target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>", target.name: Required value]',
    ]);
    expect((await pods().get('b3')).spec?.nodeName).toBeUndefined();
  });

  it('is served over HTTP and listed by discovery with its kind', async () => {
    await pods().create(pod('b4'));
    const res = await fetch(`${served.server.url}/api/v1/namespaces/default/pods/b4/binding`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'b4' }, target: { name: 'n2' } }),
    });
    expect(res.status).toBe(201);
    expect((await pods().get('b4')).spec?.nodeName).toBe('n2');
    const get = await fetch(`${served.server.url}/api/v1/namespaces/default/pods/b4/binding`);
    expect(get.status).toBe(405);
    const discovery = (await (await fetch(`${served.server.url}/api/v1`)).json()) as {
      resources: { name: string; kind: string; verbs: string[]; group?: string }[];
    };
    expect(discovery.resources.find((r) => r.name === 'pods/binding')).toMatchObject({ kind: 'Binding', verbs: ['create'] });
    expect(discovery.resources.find((r) => r.name === 'pods/eviction')).toMatchObject({ kind: 'Eviction', group: 'policy', version: 'v1', verbs: ['create'] });
  });
});

describe('pods/eviction', () => {
  const eviction = (name: string, deleteOptions?: object) => ({
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name },
    ...(deleteOptions ? { deleteOptions } : {}),
  });

  it('deletes a pod no budget selects', async () => {
    await running('e1');
    const res = await post('e1', 'eviction', eviction('e1'));
    expect([res.code, res.body]).toEqual([201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }]);
    expect((await statusOf(() => pods().get('e1'))).code).toBe(404);
  });

  it('answers 429 with the budget as the cause when it allows no disruption, and keeps the pod', async () => {
    await running('e2');
    await budget('strict', { disruptionsAllowed: 0, desiredHealthy: 1, currentHealthy: 1, expectedPods: 1 });
    const status = await statusOf(() => post('e2', 'eviction', eviction('e2')));
    expect(status).toMatchObject({
      code: 429,
      reason: 'TooManyRequests',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget strict needs 1 healthy pods and has 1 currently' }] },
    });
    expect((await pods().get('e2')).metadata?.name).toBe('e2');
    await budgets().delete('strict');
  });

  it('uses up one disruption, records the pod in the budget and deletes the pod', async () => {
    await running('e3');
    await budget('loose', { disruptionsAllowed: 1, desiredHealthy: 1, currentHealthy: 2, expectedPods: 2 });
    expect((await post('e3', 'eviction', eviction('e3'))).code).toBe(201);
    const after = await budgets().get('loose');
    expect(after.status?.disruptionsAllowed).toBe(0);
    expect(after.status?.disruptedPods).toEqual({ e3: '2026-01-01T00:00:00Z' });
    expect(after.status?.conditions).toEqual([
      {
        type: 'DisruptionAllowed',
        status: 'False',
        reason: 'InsufficientPods',
        message: '',
        observedGeneration: 1,
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
    ]);
    expect((await statusOf(() => pods().get('e3'))).code).toBe(404);
    await budgets().delete('loose');
  });

  it('evicts a pending pod whatever the budget says', async () => {
    await pods().create(pod('e4'));
    await budget('strict2', { disruptionsAllowed: 0, desiredHealthy: 1, currentHealthy: 0 });
    expect((await post('e4', 'eviction', eviction('e4'))).code).toBe(201);
    expect((await statusOf(() => pods().get('e4'))).code).toBe(404);
    await budgets().delete('strict2');
  });

  it('answers 429 "still being processed" while the budget has not observed its generation', async () => {
    await running('e5');
    const created = await budgets().create({ metadata: { name: 'fresh' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } });
    expect(created.metadata?.generation).toBe(1);
    const status = await statusOf(() => post('e5', 'eviction', eviction('e5')));
    expect(status).toMatchObject({
      code: 429,
      details: {
        retryAfterSeconds: 10,
        causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget fresh is still being processed by the server.' }],
      },
    });
    await budgets().delete('fresh');
  });

  it('over HTTP, a 429 that suggests a delay carries it as Retry-After, one that does not carries none', async () => {
    await running('e7');
    await budgets().create({ metadata: { name: 'fresh' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } });
    const post = () =>
      fetch(`${served.server.url}/api/v1/namespaces/default/pods/e7/eviction`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(eviction('e7')),
      });
    const processing = await post();
    expect([processing.status, processing.headers.get('retry-after')]).toEqual([429, '10']);
    const fresh = await budgets().get('fresh');
    await budgets().updateStatus({ ...fresh, status: { observedGeneration: 1, disruptionsAllowed: 0, desiredHealthy: 1, currentHealthy: 1 } });
    const refused = await post();
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, null]);
  });

  it('a dry run checks the budget but changes nothing', async () => {
    await running('e6');
    await budget('dry', { disruptionsAllowed: 1, desiredHealthy: 1, currentHealthy: 2 });
    expect((await post('e6', 'eviction', eviction('e6', { dryRun: ['All'] }))).code).toBe(201);
    expect((await budgets().get('dry')).status?.disruptionsAllowed).toBe(1);
    expect((await pods().get('e6')).metadata?.name).toBe('e6');
    await budgets().delete('dry');
  });

  it('refuses a body naming another pod (400) and a pod that does not exist (404)', async () => {
    const other = await statusOf(() => post('e1', 'eviction', eviction('zzz')));
    expect([other.code, other.message]).toEqual([400, 'name in URL does not match name in Eviction object']);
    expect((await statusOf(() => post('nope', 'eviction', eviction('nope')))).code).toBe(404);
    const wrongKind = await statusOf(() => post('nope', 'eviction', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'nope' } }));
    expect(wrongKind.code).toBe(400);
  });
});

describe('bindings (the legacy resource)', () => {
  it('binds the pod the Binding names, as pods/binding does', async () => {
    await pods().create(pod('l1'));
    const res = await served.cluster.request({
      verb: 'create',
      resource: { group: '', version: 'v1', resource: 'bindings' },
      namespace: 'default',
      body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'l1' }, target: { name: 'n3' } },
      user: ADMIN_USER,
    });
    expect([res.code, res.body]).toEqual([201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }]);
    expect((await pods().get('l1')).spec?.nodeName).toBe('n3');
    const again = await statusOf(() =>
      served.cluster.request({
        verb: 'create',
        resource: { group: '', version: 'v1', resource: 'bindings' },
        namespace: 'default',
        body: { metadata: { name: 'l1' }, target: { name: 'n4' } },
        user: ADMIN_USER,
      }),
    );
    expect(again.code).toBe(409);
  });
});
