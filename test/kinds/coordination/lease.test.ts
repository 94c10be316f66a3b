import { describe, expect, it } from 'vitest';
import { coordinationKinds, LeaseKind, type Lease } from '../../../src/kinds/coordination/index.js';
import { createCluster } from '../../../src/cluster.js';
import { MemoryStorage } from '../../../src/storage/memory.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster({ kinds: [...coordinationKinds] });
const gateOff = useTestCluster({ kinds: [...coordinationKinds], featureGates: { CoordinatedLeaderElection: false } });

const leases = () => cluster.client.resource(LeaseKind);
const create = (l: Lease) => leases().create(l, { namespace: 'default' });

describe('Lease', () => {
  it('stores MicroTimes in UTC with microseconds', async () => {
    const l = await create({
      metadata: { name: 'a' },
      spec: { holderIdentity: 'me', leaseDurationSeconds: 15, renewTime: '2026-01-01T01:00:00.123456+01:00', acquireTime: '2026-01-01T00:00:00.000000Z' },
    });
    expect(l.spec).toEqual({
      holderIdentity: 'me',
      leaseDurationSeconds: 15,
      renewTime: '2026-01-01T00:00:00.123456Z',
      acquireTime: '2026-01-01T00:00:00.000000Z',
    });
    expect(l.apiVersion).toBe('coordination.k8s.io/v1');
  });

  it('rejects a MicroTime without six fraction digits with the decoder message', async () => {
    const s = await statusOf(() => create({ metadata: { name: 'a' }, spec: { renewTime: '2026-01-01T00:00:00Z' } }));
    expect(s).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message:
        'Lease in version "v1" cannot be handled as a Lease: parsing time "2026-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    });
  });

  it.each([
    [{ leaseDurationSeconds: 0 }, 'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0'],
    [{ leaseDurationSeconds: -1 }, 'spec.leaseDurationSeconds: Invalid value: -1: must be greater than 0'],
    [{ leaseTransitions: -1 }, 'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0'],
    [{ preferredHolder: 'b' }, 'spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined'],
    [{ strategy: 'Newest' }, 'spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"'],
  ])('rejects %j', async (spec, msg) => {
    const s = await statusOf(() => create({ metadata: { name: 'a' }, spec }));
    expect(s).toMatchObject({ code: 422, reason: 'Invalid', message: `Lease.coordination.k8s.io "a" is invalid: ${msg}` });
    expect((await leases().list({ namespace: 'default' })).items).toEqual([]);
  });

  it('accepts zero transitions, a strategy with a preferred holder, and a qualified strategy', async () => {
    await create({ metadata: { name: 'a' }, spec: { leaseTransitions: 0, leaseDurationSeconds: 1, strategy: 'OldestEmulationVersion', preferredHolder: 'b' } });
    await create({ metadata: { name: 'b' }, spec: { strategy: 'example.com/mine' } });
    expect((await leases().get('a', { namespace: 'default' })).spec).toMatchObject({ strategy: 'OldestEmulationVersion', preferredHolder: 'b' });
  });

  it('creates on PUT and requires a resourceVersion on update', async () => {
    const l = await leases().update({ metadata: { name: 'put', namespace: 'default' }, spec: { holderIdentity: 'x' } });
    expect(l.metadata?.resourceVersion).toBeDefined();
    const s = await statusOf(() => leases().update({ metadata: { name: 'put', namespace: 'default' }, spec: { holderIdentity: 'y' } }));
    expect(s).toMatchObject({
      code: 422,
      message: 'Lease.coordination.k8s.io "put" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update',
    });
  });
});

describe('Lease with CoordinatedLeaderElection off', () => {
  it('drops strategy and preferredHolder', async () => {
    const l = await gateOff.client
      .resource(LeaseKind)
      .create({ metadata: { name: 'a' }, spec: { holderIdentity: 'me', strategy: 'OldestEmulationVersion', preferredHolder: 'b' } }, { namespace: 'default' });
    expect(l.spec).toEqual({ holderIdentity: 'me' });
  });

  it('does not serve LeaseCandidate', async () => {
    const s = await statusOf(() =>
      gateOff.client.resource({ group: 'coordination.k8s.io', version: 'v1beta1', resource: 'leasecandidates' }).list({ namespace: 'default' }),
    );
    expect(s.code).toBe(404);
  });
});

describe('Lease update with CoordinatedLeaderElection off', () => {
  it('drops a strategy and preferredHolder that an update adds', async () => {
    const off = await gateOff.client.resource(LeaseKind).create({ metadata: { name: 'a' }, spec: {} }, { namespace: 'default' });
    const updated = await gateOff.client.resource(LeaseKind).update({ ...off, spec: { strategy: 'OldestEmulationVersion', preferredHolder: 'x' } });
    expect(updated.spec).toEqual({});
  });
});

describe('Lease written with the gate on, updated with it off', () => {
  it('keeps the strategy and preferredHolder the stored lease already has', async () => {
    const storage = new MemoryStorage({ now: () => Date.parse('2026-01-01T00:00:00Z') });
    const on = await createCluster({ clock: new Date('2026-01-01T00:00:00Z'), storage, kinds: [...coordinationKinds] });
    const created = await on.client
      .resource(LeaseKind)
      .create({ metadata: { name: 'a' }, spec: { strategy: 'OldestEmulationVersion', preferredHolder: 'x' } }, { namespace: 'default' });
    await on.close();
    const off = await createCluster({
      clock: new Date('2026-01-01T00:00:00Z'),
      storage,
      kinds: [...coordinationKinds],
      featureGates: { CoordinatedLeaderElection: false },
    });
    try {
      const updated = await off.client.resource(LeaseKind).update({ ...created, spec: { ...created.spec, holderIdentity: 'me' } });
      expect(updated.spec).toEqual({ strategy: 'OldestEmulationVersion', preferredHolder: 'x', holderIdentity: 'me' });
    } finally {
      await off.close();
    }
  });
});
