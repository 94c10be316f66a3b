/** A Pod's `ephemeralcontainers` and `resize` subresources: each changes its own part of the pod only. */
import { describe, expect, it } from 'vitest';
import { ADMIN_USER } from '../../../../src/client/client.js';
import { PodKind, type Pod } from '../../../../src/kinds/core/index.js';
import type { ApiResponse } from '../../../../src/machinery/request.js';
import { statusOf, useTestCluster } from '../../../support/cluster.js';

const cluster = useTestCluster();
const pods = () => cluster.client.resource(PodKind);

function sub(verb: 'get' | 'update' | 'patch', name: string, subresource: string, body?: unknown): Promise<ApiResponse> {
  return cluster.request({
    verb,
    resource: { group: '', version: 'v1', resource: 'pods' },
    subresource,
    namespace: 'default',
    name,
    body,
    ...(verb === 'patch' ? { patchType: 'strategic' as const } : {}),
    user: ADMIN_USER,
  });
}

const burstable = (): Pod => ({
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } } }] },
});

describe('pods/ephemeralcontainers', () => {
  it('adds an ephemeral container and nothing else, and bumps the generation', async () => {
    const created = await pods().create(burstable());
    const res = await sub('patch', 'p', 'ephemeralcontainers', {
      metadata: { labels: { sneaky: 'yes' } },
      spec: { ephemeralContainers: [{ name: 'debugger', image: 'busybox', stdin: true, tty: true }], activeDeadlineSeconds: 5 },
    });
    const pod = res.body as Pod;
    expect(pod.spec?.ephemeralContainers?.map((c) => c.name)).toEqual(['debugger']);
    expect(pod.spec?.ephemeralContainers?.[0]).toMatchObject({ terminationMessagePath: '/dev/termination-log', imagePullPolicy: 'Always' });
    expect(pod.metadata?.labels).toBeUndefined();
    expect(pod.spec?.activeDeadlineSeconds).toBeUndefined();
    expect(pod.metadata?.generation).toBe((created.metadata?.generation ?? 0) + 1);
    expect(((await sub('get', 'p', 'ephemeralcontainers')).body as Pod).spec?.ephemeralContainers).toHaveLength(1);
  });

  it('refuses removing or changing an existing ephemeral container, and an invalid new one', async () => {
    await pods().create(burstable());
    await sub('patch', 'p', 'ephemeralcontainers', { spec: { ephemeralContainers: [{ name: 'd', image: 'busybox' }] } });
    const current = await pods().get('p');
    const removed = await statusOf(() => sub('update', 'p', 'ephemeralcontainers', { ...current, spec: { ...current.spec, ephemeralContainers: [] } }));
    expect(removed.code).toBe(422);
    expect(removed.details?.causes?.[0]).toMatchObject({
      field: 'spec.ephemeralContainers',
      message: 'Forbidden: existing ephemeral containers "d" may not be removed\n',
    });
    const changed = structuredClone(current);
    changed.spec!.ephemeralContainers![0]!.image = 'alpine';
    const status = await statusOf(() => sub('update', 'p', 'ephemeralcontainers', changed));
    expect(status.details?.causes?.[0]?.message).toBe('Forbidden: existing ephemeral containers "d" may not be changed\n');
    const bad = await statusOf(() => sub('patch', 'p', 'ephemeralcontainers', { spec: { ephemeralContainers: [{ name: 'Not_A_Label', image: 'busybox' }] } }));
    expect(bad.code).toBe(422);
    expect(bad.details?.causes?.map((c) => c.field)).toContain('spec.ephemeralContainers[0].name');
    expect((await pods().get('p')).spec?.ephemeralContainers?.map((c) => c.image)).toEqual(['busybox']);
  });
});

describe('pods/resize', () => {
  it('changes cpu and memory of a container, nothing else', async () => {
    await pods().create(burstable());
    const res = await sub('patch', 'p', 'resize', {
      spec: { containers: [{ name: 'c', image: 'evil', resources: { requests: { cpu: '150m' }, limits: { cpu: '300m' } } }] },
    });
    const c = (res.body as Pod).spec!.containers[0]!;
    expect(c.resources).toEqual({ requests: { cpu: '150m', memory: '64Mi' }, limits: { cpu: '300m', memory: '128Mi' } });
    expect(c.image).toBe('nginx');
  });

  it('refuses a resize that changes the QoS class, removes a limit, or touches other resources', async () => {
    await pods().create(burstable());
    const qos = await statusOf(() =>
      sub('patch', 'p', 'resize', { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '200m', memory: '128Mi' } } }] } }),
    );
    expect(qos.code).toBe(422);
    expect(qos.details?.causes).toContainEqual({
      reason: 'FieldValueInvalid',
      field: 'spec',
      message: 'Invalid value: "Burstable": Pod QOS Class may not change as a result of resizing',
    });
    const removed = await statusOf(() => sub('patch', 'p', 'resize', { spec: { containers: [{ name: 'c', resources: { limits: { memory: null } } }] } }));
    expect(removed.details?.causes).toContainEqual({
      reason: 'FieldValueForbidden',
      field: 'spec.containers[0].resources.limits[memory]',
      message: 'Forbidden: resource limits cannot be removed',
    });
    const other = await statusOf(() =>
      sub('patch', 'p', 'resize', { spec: { containers: [{ name: 'c', resources: { requests: { 'ephemeral-storage': '1Gi' } } }] } }),
    );
    expect(other.details?.causes).toContainEqual({
      reason: 'FieldValueForbidden',
      field: 'spec',
      message: 'Forbidden: only cpu and memory resources are mutable',
    });
    expect((await pods().get('p')).spec?.containers[0]?.resources).toEqual(burstable().spec!.containers[0]!.resources);
  });
});
