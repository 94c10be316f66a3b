import { describe, expect, it } from 'vitest';
import { networkingKinds, ServiceCIDRKind, type ServiceCIDR } from '../../../src/kinds/networking/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster({ kinds: [...networkingKinds] });
const scs = () => cluster.client.resource(ServiceCIDRKind);
const create = (cidrs: string[] | undefined, name = 'sc') => scs().create({ metadata: { name }, spec: cidrs ? { cidrs } : {} } as ServiceCIDR);

async function invalid(cidrs: string[] | undefined, field: string, body: string) {
  const s = await statusOf(() => create(cidrs));
  expect(s).toMatchObject({
    code: 422,
    reason: 'Invalid',
    message: `ServiceCIDR.networking.k8s.io "sc" is invalid: ${field}: ${body}`,
    details: { causes: [{ field }] },
  });
}

describe('ServiceCIDR', () => {
  it('accepts one CIDR or one of each family, cluster-scoped', async () => {
    const sc = await create(['10.0.0.0/16', '2001:db8::/64']);
    expect(sc).toMatchObject({ apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', spec: { cidrs: ['10.0.0.0/16', '2001:db8::/64'] } });
    expect(sc.metadata?.namespace).toBeUndefined();
    await create(['fd00::/108'], 'v6');
  });

  it('requires at least one CIDR', async () => {
    await invalid(undefined, 'spec.cidrs', 'Required value: at least one CIDR required');
    await invalid([], 'spec.cidrs', 'Required value: at least one CIDR required');
  });

  it('holds at most two, one per family', async () => {
    await invalid(
      ['10.0.0.0/24', '10.1.0.0/24', '2001:db8::/64'],
      'spec.cidrs',
      'Invalid value: {"cidrs":["10.0.0.0/24","10.1.0.0/24","2001:db8::/64"]}: may only hold up to 2 values',
    );
    await invalid(
      ['10.0.0.0/24', '10.1.0.0/24'],
      'spec.cidrs',
      'Invalid value: {"cidrs":["10.0.0.0/24","10.1.0.0/24"]}: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64',
    );
    await invalid(
      ['10.0.0.0/24', 'bad'],
      'spec.cidrs',
      'Invalid value: {"cidrs":["10.0.0.0/24","bad"]}: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64',
    );
  });

  it.each([
    ['10.0.0.0', 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'],
    ['10.0.0.0/33', 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'],
    ['fe80::1%eth0/64', 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'],
    ['010.0.0.0/8', 'must not have leading 0s in IP or prefix length'],
    ['10.0.0.0/08', 'must not have leading 0s in IP or prefix length'],
    ['::ffff:10.0.0.0/104', 'must not have an IPv4-mapped IPv6 address'],
    ['10.0.0.1/24', 'must not have bits set beyond the prefix length'],
    ['2001:db8::1/64', 'must not have bits set beyond the prefix length'],
    ['2001:DB8::/64', 'must be in canonical form ("2001:db8::/64")'],
    ['2001:0db8:0:0::/64', 'must be in canonical form ("2001:db8::/64")'],
  ])('rejects %j', async (cidr, msg) => {
    await invalid([cidr], 'spec.cidrs[0]', `Invalid value: ${JSON.stringify(cidr)}: ${msg}`);
  });

  it('keeps spec.cidrs immutable', async () => {
    const sc = await create(['10.0.0.0/16']);
    const s = await statusOf(() => scs().update({ ...sc, spec: { cidrs: ['10.0.0.0/16', 'fd00::/64'] } }));
    expect(s).toMatchObject({
      code: 422,
      message: 'ServiceCIDR.networking.k8s.io "sc" is invalid: spec.cidrs: Invalid value: ["10.0.0.0/16","fd00::/64"]: field is immutable',
    });
    const labelled = await scs().update({ ...sc, metadata: { ...sc.metadata, labels: { a: 'b' } } });
    expect(labelled.metadata?.labels).toEqual({ a: 'b' });
  });

  it('resets status on create and changes it only through /status', async () => {
    const sc = await scs().create({
      metadata: { name: 'sc' },
      spec: { cidrs: ['10.0.0.0/16'] },
      status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Ok', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
    });
    expect(sc.status).toEqual({});
    const cond = { type: 'Ready', status: 'True', reason: 'Ok', message: 'ready', lastTransitionTime: '2026-01-01T00:00:00Z' };
    const ignored = await scs().update({ ...sc, status: { conditions: [cond] } });
    expect(ignored.status).toEqual({});
    const updated = await scs().updateStatus({ ...ignored, status: { conditions: [cond] } });
    expect(updated.status?.conditions).toEqual([cond]);
    expect(updated.spec?.cidrs).toEqual(['10.0.0.0/16']);
  });
});
