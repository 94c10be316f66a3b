import { describe, expect, it } from 'vitest';
import { coordinationKinds, LeaseCandidateKind, type LeaseCandidate } from '../../../src/kinds/coordination/index.js';
import { goQuote } from '../../../src/util/go-format.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster({ kinds: [...coordinationKinds] });

const lcs = () => cluster.client.resource(LeaseCandidateKind);
const create = (lc: LeaseCandidate) => lcs().create(lc, { namespace: 'default' });
const spec = (s: Partial<LeaseCandidate['spec']> = {}): LeaseCandidate['spec'] => ({
  leaseName: 'kube-scheduler',
  binaryVersion: '1.36.0',
  emulationVersion: '1.35.0',
  strategy: 'OldestEmulationVersion',
  ...s,
});

async function invalid(lc: LeaseCandidate, ...messages: string[]) {
  const s = await statusOf(() => create(lc));
  const name = lc.metadata?.name ?? '';
  const body = messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
  expect(s).toMatchObject({ code: 422, reason: 'Invalid', message: `LeaseCandidate.coordination.k8s.io "${name}" is invalid: ${body}` });
  return s;
}

describe('LeaseCandidate', () => {
  it('accepts a valid candidate, normalizing MicroTimes', async () => {
    const lc = await create({
      metadata: { name: 'kube-scheduler-node1' },
      spec: spec({ renewTime: '2026-01-01T00:00:00.000001Z', pingTime: '2026-01-01T02:00:00.500000+02:00' }),
    });
    expect(lc.apiVersion).toBe('coordination.k8s.io/v1beta1');
    expect(lc.spec).toMatchObject({ renewTime: '2026-01-01T00:00:00.000001Z', pingTime: '2026-01-01T00:00:00.500000Z' });
  });

  it('accepts names that are config-map keys (e.g. upper case, underscores)', async () => {
    await create({ metadata: { name: 'Kube_Scheduler.1' }, spec: spec() });
    const s = await statusOf(() => create({ metadata: { name: 'a/b' }, spec: spec() }));
    expect(s.details?.causes?.[0]?.field).toBe('metadata.name');
  });

  it('requires leaseName, binaryVersion and strategy', async () => {
    const s = await invalid(
      { metadata: { name: 'c' }, spec: { leaseName: '', binaryVersion: '', strategy: '' } },
      'spec.leaseName: Required value',
      'spec.binaryVersion: Required value',
      'spec.strategy: Required value',
    );
    expect(s.details?.causes?.map((c) => c.field)).toEqual(['spec.leaseName', 'spec.binaryVersion', 'spec.strategy']);
  });

  it.each(['v1.36.0', '1.36', '01.2.3', '1.2.3-01'])('rejects binaryVersion %j unless it is semver without a leading v', async (v) => {
    await invalid(
      { metadata: { name: 'c' }, spec: spec({ binaryVersion: v, emulationVersion: '', strategy: 'x.io/y' }) },
      `spec.binaryVersion: Invalid value: ${JSON.stringify(v)}: must be a valid semantic version`,
    );
  });

  it('requires emulationVersion <= binaryVersion', async () => {
    await invalid(
      { metadata: { name: 'c' }, spec: spec({ binaryVersion: '1.35.0', emulationVersion: '1.36.0' }) },
      'spec.binaryVersion: Invalid value: "1.35.0": must be greater than or equal to `emulationVersion`',
    );
    await create({ metadata: { name: 'eq' }, spec: spec({ binaryVersion: '1.36.0', emulationVersion: '1.36.0' }) });
    await invalid(
      { metadata: { name: 'c' }, spec: spec({ binaryVersion: '1.36.0-rc.1', emulationVersion: '1.36.0' }) },
      'spec.binaryVersion: Invalid value: "1.36.0-rc.1": must be greater than or equal to `emulationVersion`',
    );
  });

  it('requires emulationVersion for OldestEmulationVersion', async () => {
    await invalid(
      { metadata: { name: 'c' }, spec: spec({ emulationVersion: undefined }) },
      "spec.emulationVersion: Required value: must be specified when `strategy` is 'OldestEmulationVersion'",
    );
    await invalid(
      { metadata: { name: 'c' }, spec: spec({ emulationVersion: 'x' }) },
      'spec.emulationVersion: Invalid value: "x": must be a valid semantic version',
      "spec.emulationVersion: Required value: must be specified when `strategy` is 'OldestEmulationVersion'",
    );
    await create({ metadata: { name: 'custom' }, spec: spec({ emulationVersion: undefined, strategy: 'example.com/custom' }) });
  });

  it('rejects an unknown strategy on spec.strategy.strategy, as Kubernetes reports it', async () => {
    await invalid(
      { metadata: { name: 'c' }, spec: spec({ strategy: 'Newest' }) },
      'spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"',
    );
  });

  it('keeps leaseName immutable and requires a resourceVersion on update', async () => {
    const lc = await create({ metadata: { name: 'c' }, spec: spec() });
    const s = await statusOf(() => lcs().update({ ...lc, spec: { ...lc.spec, leaseName: 'other' } }));
    expect(s).toMatchObject({
      code: 422,
      message: 'LeaseCandidate.coordination.k8s.io "c" is invalid: spec.leaseName: Invalid value: "other": field is immutable',
    });
    const updated = await lcs().update({ ...lc, spec: { ...lc.spec, renewTime: '2026-01-01T00:00:01.000000Z' } });
    expect(updated.spec.renewTime).toBe('2026-01-01T00:00:01.000000Z');
    const u = await statusOf(() => lcs().update({ metadata: { name: 'c', namespace: 'default' }, spec: spec() }));
    expect(u.code).toBe(422);
  });

  describe('leaseName has the limits of a Lease name (a DNS subdomain)', () => {
    const SUBDOMAIN_MSG =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    const longest = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;

    it.each(['kube-scheduler', 'kube-system.controller-1', '0', longest])('accepts %j', async (leaseName) => {
      const lc = await create({ metadata: { name: 'ok' }, spec: spec({ leaseName }) });
      expect(lc.spec.leaseName).toBe(leaseName);
    });

    it.each(['Kube-Scheduler', 'kube_scheduler', 'a..b', 'ns/lease', '-lease', 'lease.', 'lëase', 'lease\u0000', ' lease'])(
      'rejects %j with the DNS-subdomain message',
      async (leaseName) => {
        const s = await invalid(
          { metadata: { name: 'c' }, spec: spec({ leaseName }) },
          `spec.leaseName: Invalid value: ${goQuote(leaseName)}: ${SUBDOMAIN_MSG}`,
        );
        expect(s.details?.causes).toEqual([
          { reason: 'FieldValueInvalid', field: 'spec.leaseName', message: `Invalid value: ${goQuote(leaseName)}: ${SUBDOMAIN_MSG}` },
        ]);
        expect((await lcs().list({ namespace: 'default' })).items).toEqual([]);
      },
    );

    it('reports a name over 253 characters, and its format too when that is also wrong (one cause per message)', async () => {
      const tooLong = `${longest}e`;
      await invalid(
        { metadata: { name: 'c' }, spec: spec({ leaseName: tooLong }) },
        `spec.leaseName: Invalid value: "${tooLong}": must be no more than 253 characters`,
      );
      const both = `${longest}E`;
      const s = await invalid(
        { metadata: { name: 'c' }, spec: spec({ leaseName: both }) },
        `spec.leaseName: Invalid value: "${both}": must be no more than 253 characters`,
        `spec.leaseName: Invalid value: "${both}": ${SUBDOMAIN_MSG}`,
      );
      expect(s.details?.causes?.map((c) => c.field)).toEqual(['spec.leaseName', 'spec.leaseName']);
    });

    it('rejects a megabyte-long leaseName without hanging, storing nothing', async () => {
      const s = await statusOf(() => create({ metadata: { name: 'c' }, spec: spec({ leaseName: 'A'.repeat(1 << 20) }) }));
      expect(s).toMatchObject({ code: 422, reason: 'Invalid' });
      expect(s.details?.causes?.map((c) => c.field)).toEqual(['spec.leaseName', 'spec.leaseName']);
      expect((await lcs().list({ namespace: 'default' })).items).toEqual([]);
    });

    it('rejects a non-string leaseName while decoding', async () => {
      const s = await statusOf(() => create({ metadata: { name: 'c' }, spec: { ...spec(), leaseName: 42 as unknown as string } }));
      expect(s.code).toBe(400);
      expect((await lcs().list({ namespace: 'default' })).items).toEqual([]);
    });

    it('reports an update to an invalid leaseName as immutable and invalid', async () => {
      const lc = await create({ metadata: { name: 'c' }, spec: spec() });
      const s = await statusOf(() => lcs().update({ ...lc, spec: { ...lc.spec, leaseName: 'Other' } }));
      expect(s).toMatchObject({
        code: 422,
        message: `LeaseCandidate.coordination.k8s.io "c" is invalid: [spec.leaseName: Invalid value: "Other": field is immutable, spec.leaseName: Invalid value: "Other": ${SUBDOMAIN_MSG}]`,
      });
      expect((await lcs().get('c', { namespace: 'default' })).spec.leaseName).toBe('kube-scheduler');
    });
  });

  it('selects on spec.leaseName', async () => {
    await create({ metadata: { name: 'a' }, spec: spec() });
    await create({ metadata: { name: 'b' }, spec: spec({ leaseName: 'kube-controller-manager' }) });
    const list = await lcs().list({ namespace: 'default', fieldSelector: 'spec.leaseName=kube-controller-manager' });
    expect(list.items.map((i) => i.metadata?.name)).toEqual(['b']);
  });
});
