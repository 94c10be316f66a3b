import { describe, expect, it } from 'vitest';
import { EndpointsKind, type Endpoints } from '../../../src/kinds/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';
import { causeLines, tableOf } from './table.js';

const cluster = useTestCluster();
const eps = () => cluster.client.resource(EndpointsKind);
const DEPRECATED = 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice';

function ep(subsets: Endpoints['subsets'], name = 'web'): Endpoints {
  return { metadata: { name }, subsets };
}

async function causes(e: Endpoints) {
  const status = await statusOf(() => eps().create(e));
  expect(status.code).toBe(422);
  return causeLines(status);
}

describe('Endpoints validation', () => {
  it('accepts addresses with ports and stores them as sent', async () => {
    const created = await eps().create(ep([{ addresses: [{ ip: '10.0.0.1', hostname: 'a', nodeName: 'node-1' }], ports: [{ port: 80, protocol: 'TCP' }] }]));
    expect(created.subsets).toEqual([{ addresses: [{ ip: '10.0.0.1', hostname: 'a', nodeName: 'node-1' }], ports: [{ port: 80, protocol: 'TCP' }] }]);
    expect(created.metadata?.generation).toBeUndefined();
  });

  it('requires addresses or notReadyAddresses in each subset', async () => {
    expect(await causes(ep([{ ports: [{ port: 80, protocol: 'TCP' }] }]))).toEqual([
      'subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`',
    ]);
  });

  it('rejects special and malformed IPs', async () => {
    expect(
      await causes(
        ep([{ addresses: [{ ip: '127.0.0.1' }, { ip: '0.0.0.0' }, { ip: '169.254.1.1' }, { ip: '224.0.0.5' }], notReadyAddresses: [{ ip: 'fe80::1' }] }]),
      ),
    ).toEqual([
      'subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'subsets[0].addresses[1].ip: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)',
      'subsets[0].addresses[2].ip: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
      'subsets[0].addresses[3].ip: Invalid value: "224.0.0.5": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
      'subsets[0].notReadyAddresses[0].ip: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
    ]);
    expect(await causes(ep([{ addresses: [{ ip: 'nope' }] }]))).toEqual([
      'subsets[0].addresses[0].ip: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'subsets[0].addresses[0].ip: Invalid value: "nope": must be a valid IP address',
    ]);
  });

  it('checks hostnames and node names', async () => {
    expect(await causes(ep([{ addresses: [{ ip: '10.0.0.1', hostname: 'A.b', nodeName: 'Node_1' }] }]))).toEqual([
      expect.stringMatching(/^subsets\[0\]\.addresses\[0\]\.hostname: Invalid value: "A\.b": a lowercase RFC 1123 label/),
      expect.stringMatching(/^subsets\[0\]\.addresses\[0\]\.nodeName: Invalid value: "Node_1": a lowercase RFC 1123 subdomain/),
    ]);
  });

  it('checks ports: names required when several, numbers, protocols, appProtocol', async () => {
    expect(
      await causes(
        ep([
          {
            addresses: [{ ip: '10.0.0.1' }],
            ports: [
              { port: 0, protocol: 'TCP' },
              { name: 'b', port: 70000, protocol: 'ICMP', appProtocol: 'not a name!' },
              { name: 'c', port: 1, protocol: '' },
            ],
          },
        ]),
      ),
    ).toEqual([
      'subsets[0].ports[0].name: Required value',
      'subsets[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'subsets[0].ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'subsets[0].ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
      expect.stringMatching(/^subsets\[0\]\.ports\[1\]\.appProtocol: Invalid value: "not a name!": /),
    ]);
  });

  it('defaults the port protocol to TCP', async () => {
    const created = await eps().create(ep([{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }]));
    expect(created.subsets?.[0]?.ports).toEqual([{ port: 80, protocol: 'TCP' }]);
  });

  it('validates updates the same way and is created by PUT', async () => {
    const created = await eps().update(ep([{ addresses: [{ ip: '10.0.0.1' }] }], 'put'));
    expect(created.metadata?.name).toBe('put');
    const status = await statusOf(() => eps().update({ ...created, subsets: [{ addresses: [{ ip: '127.0.0.1' }] }] }));
    expect(causeLines(status)).toEqual(['subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)']);
  });
});

describe('Endpoints deprecation', () => {
  it('warns on every request', async () => {
    const created = await cluster.fetch(
      new Request('http://memkube/api/v1/namespaces/default/endpoints', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(ep([{ addresses: [{ ip: '10.0.0.1' }] }])),
      }),
    );
    expect(created.status).toBe(201);
    expect(created.headers.get('warning')).toBe(`299 - "${DEPRECATED}"`);
    const res = await cluster.fetch(new Request('http://memkube/api/v1/namespaces/default/endpoints/web'));
    expect(res.headers.get('warning')).toBe(`299 - "${DEPRECATED}"`);
    const list = await cluster.fetch(new Request('http://memkube/api/v1/endpoints'));
    expect(list.headers.get('warning')).toBe(`299 - "${DEPRECATED}"`);
  });

  it('warns on failed requests too, over HTTP and to the in-process client', async () => {
    const missing = await cluster.fetch(new Request('http://memkube/api/v1/namespaces/default/endpoints/nothing-here'));
    expect(missing.status).toBe(404);
    expect(missing.headers.get('warning')).toBe(`299 - "${DEPRECATED}"`);
    const seen: string[] = [];
    const status = await statusOf(() => eps().create(ep([{ addresses: [{ ip: 'not-an-ip' }] }], 'bad'), { onWarning: (w) => seen.push(...w) }));
    expect(status.code).toBe(422);
    expect(seen).toEqual([DEPRECATED]);
    // A path that names no served resource has no kind, so no warning.
    const unknown = await cluster.fetch(new Request('http://memkube/api/v1/namespaces/default/endpointz/x'));
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('warning')).toBeNull();
  });
});

describe('Endpoints printing', () => {
  it('prints ip:port pairs, at most three, then how many more', async () => {
    await eps().create(
      ep(
        [
          {
            addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }],
            ports: [
              { name: 'http', port: 80, protocol: 'TCP' },
              { name: 'https', port: 443, protocol: 'TCP' },
            ],
          },
        ],
        'a',
      ),
    );
    await eps().create(ep([{ addresses: [{ ip: '10.0.0.1' }, { ip: '2001:db8::1' }] }], 'b'));
    await eps().create(ep(undefined, 'c'));
    const t = await tableOf(cluster, '/api/v1/namespaces/default/endpoints');
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Endpoints', 'Age']);
    expect(t.rows.map((r) => r.cells.slice(0, 2))).toEqual([
      ['a', '10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 1 more...'],
      ['b', '10.0.0.1,2001:db8::1'],
      ['c', '<none>'],
    ]);
  });

  it('brackets IPv6 hosts with a port', async () => {
    await eps().create(ep([{ addresses: [{ ip: '2001:db8::1' }], ports: [{ port: 80, protocol: 'TCP' }] }], 'v6'));
    const t = await tableOf(cluster, '/api/v1/namespaces/default/endpoints/v6');
    expect(t.rows[0]!.cells[1]).toBe('[2001:db8::1]:80');
  });
});
