import { describe, expect, it } from 'vitest';
import { IPAddressKind, NetworkPolicyKind, networkingKinds, type IPAddress, type NetworkPolicy } from '../../../src/kinds/networking/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster({ kinds: [...networkingKinds] });
const policies = () => cluster.client.resource(NetworkPolicyKind);
const addresses = () => cluster.client.resource(IPAddressKind);

const np = (spec: NetworkPolicy['spec'], name = 'np'): NetworkPolicy => ({ metadata: { name }, spec });

async function table(path: string): Promise<{ columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] }> {
  const res = await cluster.fetch(new Request(`http://memkube${path}`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }));
  return (await res.json()) as never;
}

async function npInvalid(spec: NetworkPolicy['spec'], message: string) {
  const s = await statusOf(() => policies().create(np(spec)));
  expect(s.code).toBe(422);
  expect(s.message).toBe(`NetworkPolicy.networking.k8s.io "np" is invalid: ${message}`);
}

describe('NetworkPolicy', () => {
  it('defaults policyTypes, port protocols and the pod selector; generation 1, bumped by spec changes', async () => {
    const ingressOnly = await policies().create(np({ ingress: [{ ports: [{ port: 80 }, { port: 'dns', protocol: 'UDP' }] }] }));
    expect(ingressOnly.spec).toEqual({
      podSelector: {},
      ingress: [
        {
          ports: [
            { port: 80, protocol: 'TCP' },
            { port: 'dns', protocol: 'UDP' },
          ],
        },
      ],
      policyTypes: ['Ingress'],
    });
    expect(ingressOnly.metadata?.generation).toBe(1);
    const both = await policies().create(np({ podSelector: { matchLabels: { app: 'db' } }, egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8' } }] }] }, 'both'));
    expect(both.spec?.policyTypes).toEqual(['Ingress', 'Egress']);
    const explicit = await policies().create(np({ egress: [{}], policyTypes: ['Egress'] }, 'explicit'));
    expect(explicit.spec?.policyTypes).toEqual(['Egress']);
    const updated = await policies().update({ ...ingressOnly, spec: { ...ingressOnly.spec, policyTypes: ['Ingress', 'Egress'] } });
    expect(updated.metadata?.generation).toBe(2);
  });

  it('is served with short name netpol and no status subresource', async () => {
    const res = await cluster.fetch(new Request('http://memkube/apis/networking.k8s.io/v1'));
    const list = (await res.json()) as { resources: { name: string; shortNames?: string[] }[] };
    expect(list.resources.find((r) => r.name === 'networkpolicies')?.shortNames).toEqual(['netpol']);
    expect(list.resources.map((r) => r.name)).not.toContain('networkpolicies/status');
  });

  it.each([
    [{ protocol: 'ICMP' }, 'spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"'],
    [{ port: 0 }, 'spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive'],
    [{ port: 100, endPort: 90 }, 'spec.ingress[0].ports[0].endPort: Invalid value: 90: must be greater than or equal to `port`'],
    [{ port: 100, endPort: 70000 }, 'spec.ingress[0].ports[0].endPort: Invalid value: 70000: must be between 1 and 65535, inclusive'],
    [{ port: 'http', endPort: 90 }, 'spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is non-numeric'],
    [{ endPort: 90 }, 'spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is not specified'],
    [{ port: 'a--b' }, 'spec.ingress[0].ports[0].port: Invalid value: "a--b": must not contain consecutive hyphens'],
  ])('checks the port %j', async (port, message) => {
    await npInvalid({ ingress: [{ ports: [port as never] }] }, message);
  });

  it.each([
    [{}, 'spec.ingress[0].from[0]: Required value: must specify a peer'],
    [{ ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }, 'spec.ingress[0].from[0]: Forbidden: may not specify both ipBlock and another peer'],
    [{ ipBlock: { cidr: '' } }, 'spec.ingress[0].from[0].ipBlock.cidr: Required value'],
    [{ ipBlock: { cidr: '10.0.0.1/8' } }, 'spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "10.0.0.1/8": must not have bits set beyond the prefix length'],
    [
      { ipBlock: { cidr: '10.0.0.0/8', except: ['11.0.0.0/16'] } },
      'spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "11.0.0.0/16": must be a strict subset of `cidr`',
    ],
    [
      { ipBlock: { cidr: '10.0.0.0/8', except: ['10.0.0.0/8'] } },
      'spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "10.0.0.0/8": must be a strict subset of `cidr`',
    ],
    [
      { ipBlock: { cidr: 'nope' } },
      'spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "nope": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ],
    [
      { podSelector: { matchLabels: { 'a b': 'c' } } },
      "spec.ingress[0].from[0].podSelector.matchLabels: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ],
  ])('checks the peer %j', async (peer, message) => {
    const s = await statusOf(() => policies().create(np({ ingress: [{ from: [peer as never] }] })));
    expect((s.message ?? '').replace(/, {2}or/g, ' or')).toBe(`NetworkPolicy.networking.k8s.io "np" is invalid: ${message}`.replace(/, {2}or/g, ' or'));
  });

  it('accepts a strict subset in except and checks policyTypes', async () => {
    await policies().create(np({ egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }] }] }));
    await npInvalid(
      { policyTypes: ['Ingress', 'Egress', 'Ingress'] },
      'spec.policyTypes: Invalid value: ["Ingress","Egress","Ingress"]: may not specify more than two policyTypes',
    );
    await npInvalid({ policyTypes: ['ingress'] }, 'spec.policyTypes[0]: Unsupported value: "ingress": supported values: "Ingress", "Egress"');
  });

  it('reports an invalid spec on update (each cause twice, the message once)', async () => {
    const created = await policies().create(np({}));
    const s = await statusOf(() => policies().update({ ...created, spec: { ...created.spec, policyTypes: ['Sideways'] } }));
    expect(s.message).toBe(
      'NetworkPolicy.networking.k8s.io "np" is invalid: spec.policyTypes[0]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"',
    );
    expect(s.details?.causes?.map((c) => c.field)).toEqual(['spec.policyTypes[0]', 'spec.policyTypes[0]']);
  });

  it('prints the pod selector', async () => {
    await policies().create(np({}, 'all'));
    await policies().create(
      np({ podSelector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] } }, 'web'),
    );
    const t = await table('/apis/networking.k8s.io/v1/namespaces/default/networkpolicies');
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Pod-Selector', 'Age']);
    expect(t.rows.map((r) => r.cells.slice(0, 2))).toEqual([
      ['all', '<none>'],
      ['web', 'app=web,tier in (a,b)'],
    ]);
  });
});

describe('IPAddress', () => {
  const ip = (name: string, parentRef?: Partial<NonNullable<IPAddress['spec']>['parentRef']>): IPAddress =>
    ({ metadata: { name }, spec: parentRef === undefined ? {} : { parentRef } }) as IPAddress;
  const svc = { group: '', resource: 'services', namespace: 'default', name: 'kubernetes' };

  it('is served at v1 and v1beta1 from one storage', async () => {
    await addresses().create(ip('10.0.0.1', svc));
    const res = await cluster.fetch(new Request('http://memkube/apis/networking.k8s.io/v1beta1/ipaddresses/10.0.0.1'));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      apiVersion: 'networking.k8s.io/v1beta1',
      kind: 'IPAddress',
      spec: { parentRef: { resource: 'services', name: 'kubernetes' } },
    });
    expect((await addresses().get('10.0.0.1')).metadata?.generation).toBeUndefined();
  });

  it.each([
    ['not-an-ip', 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'],
    ['010.0.0.1', 'must not have leading 0s'],
    ['2001:DB8::1', 'must be in canonical form ("2001:db8::1")'],
    ['2001:db8:0:0:0:0:0:1', 'must be in canonical form ("2001:db8::1")'],
  ])('requires a canonical IP as name: %j', async (name, detail) => {
    const s = await statusOf(() => addresses().create(ip(name, svc)));
    expect(s.code).toBe(422);
    expect(s.details?.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'metadata.name', message: `Invalid value: ${JSON.stringify(name)}: ${detail}` }]);
  });

  it('requires and checks the parent reference', async () => {
    let s = await statusOf(() => addresses().create(ip('10.0.0.2')));
    expect(s.message).toBe('IPAddress.networking.k8s.io "10.0.0.2" is invalid: spec.parentRef: Required value');
    s = await statusOf(() => addresses().create(ip('10.0.0.2', { group: 'Bad_Group', resource: '', name: 'a/b', namespace: '..' })));
    expect(s.details?.causes?.map((c) => c.field)).toEqual([
      'spec.parentRef.group',
      'spec.parentRef.resource',
      'spec.parentRef.name',
      'spec.parentRef.namespace',
    ]);
  });

  it('keeps the parent reference immutable', async () => {
    const created = await addresses().create(ip('10.0.0.3', svc));
    const s = await statusOf(() => addresses().update({ ...created, spec: { parentRef: { ...svc, name: 'other' } } }));
    expect(s.message).toBe(
      'IPAddress.networking.k8s.io "10.0.0.3" is invalid: spec.parentRef: Invalid value: {"group":"","resource":"services","namespace":"default","name":"other"}: field is immutable',
    );
  });

  it('prints ParentRef and no Age', async () => {
    await addresses().create(ip('10.0.0.4', svc));
    await addresses().create(ip('2001:db8::4', { group: 'gateway.networking.k8s.io', resource: 'Gateways', name: 'gw' }));
    const t = await table('/apis/networking.k8s.io/v1/ipaddresses');
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'ParentRef']);
    expect(t.rows.map((r) => r.cells)).toEqual([
      ['10.0.0.4', 'services/default/kubernetes'],
      ['2001:db8::4', 'gateways.gateway.networking.k8s.io/gw'],
    ]);
  });
});

describe('ServiceCIDR v1beta1', () => {
  it('serves the same objects at v1beta1', async () => {
    const res = await cluster.fetch(
      new Request('http://memkube/apis/networking.k8s.io/v1beta1/servicecidrs', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'networking.k8s.io/v1beta1', kind: 'ServiceCIDR', metadata: { name: 'beta' }, spec: { cidrs: ['10.96.0.0/16'] } }),
      }),
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ apiVersion: 'networking.k8s.io/v1beta1', spec: { cidrs: ['10.96.0.0/16'] } });
    const v1 = await cluster.fetch(new Request('http://memkube/apis/networking.k8s.io/v1/servicecidrs/beta'));
    expect(await v1.json()).toMatchObject({ apiVersion: 'networking.k8s.io/v1', spec: { cidrs: ['10.96.0.0/16'] }, status: {} });
  });
});
