import { describe, expect, it } from 'vitest';
import { appsKinds, ControllerRevisionKind, type ControllerRevision } from '../../../src/kinds/apps/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster({ kinds: appsKinds });
const revs = () => cluster.client.resource(ControllerRevisionKind);

function rev(patch: (r: ControllerRevision) => void = () => {}): ControllerRevision {
  const r: ControllerRevision = { metadata: { name: 'web-5d8f9' }, data: { spec: { template: { x: 1 } } }, revision: 1 };
  patch(r);
  return r;
}

describe('ControllerRevision', () => {
  it('stores data and revision', async () => {
    const created = await revs().create(rev());
    expect(created).toMatchObject({ kind: 'ControllerRevision', apiVersion: 'apps/v1', data: { spec: { template: { x: 1 } } }, revision: 1 });
    expect(created.metadata).toMatchObject({ name: 'web-5d8f9', namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z' });
  });

  it('accepts revision 0 and serializes it', async () => {
    const created = await revs().create(rev((r) => delete (r as Partial<ControllerRevision>).revision));
    expect(created.revision).toBe(0);
  });

  it('requires data', async () => {
    const status = await statusOf(() => revs().create(rev((r) => delete r.data)));
    expect(status.code).toBe(422);
    expect(status.message).toBe('ControllerRevision.apps "web-5d8f9" is invalid: data: Required value: data is mandatory');
  });

  it('rejects a negative revision', async () => {
    const status = await statusOf(() => revs().create(rev((r) => (r.revision = -1))));
    expect(status.details?.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'revision' },
    ]);
  });

  it('lets revision change but not data', async () => {
    const created = await revs().create(rev());
    const bumped = await revs().update({ ...structuredClone(created), revision: 2 });
    expect(bumped.revision).toBe(2);
    const status = await statusOf(() => revs().update({ ...structuredClone(bumped), data: { other: true } }));
    expect(status.code).toBe(422);
    expect(status.message).toBe('ControllerRevision.apps "web-5d8f9" is invalid: data: Invalid value: {"other":true}: field is immutable');
  });

  it('runs the rules again on update', async () => {
    const created = await revs().create(rev());
    const status = await statusOf(() => revs().update({ ...structuredClone(created), revision: -5 }));
    expect(status.details?.causes?.map((c) => c.field)).toEqual(['revision']);
  });
});
