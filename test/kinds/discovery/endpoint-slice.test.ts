import { describe, expect, it } from 'vitest';
import { discoveryKinds, EndpointSliceKind, type EndpointSlice } from '../../../src/kinds/discovery/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster({ kinds: [...discoveryKinds] });
const slices = () => cluster.client.resource(EndpointSliceKind);

function slice(patch: (s: EndpointSlice) => void = () => {}, name = 'web-abc'): EndpointSlice {
  const s: EndpointSlice = {
    metadata: { name, labels: { 'kubernetes.io/service-name': 'web' } },
    addressType: 'IPv4',
    endpoints: [{ addresses: ['10.1.2.3'], conditions: { ready: true } }],
    ports: [{ name: 'http', port: 80 }],
  };
  patch(s);
  return s;
}

async function invalid(s: EndpointSlice, message: string) {
  const st = await statusOf(() => slices().create(s));
  expect(st.code).toBe(422);
  expect(st.message).toBe(`EndpointSlice.discovery.k8s.io "web-abc" is invalid: ${message}`);
}

describe('EndpointSlice', () => {
  it('defaults port name and protocol, drops deprecatedTopology, starts the generation at 1', async () => {
    const created = await slices().create(
      slice((s) => {
        s.ports = [{ port: 53 }];
        s.endpoints![0]!.deprecatedTopology = { zone: 'a' };
      }),
    );
    expect(created.ports).toEqual([{ name: '', port: 53, protocol: 'TCP' }]);
    expect(created.endpoints).toEqual([{ addresses: ['10.1.2.3'], conditions: { ready: true } }]);
    expect(created.metadata?.generation).toBe(1);
  });

  it('bumps the generation for any change outside metadata and for label changes, not for annotations', async () => {
    const created = await slices().create(slice());
    const annotated = await slices().update({ ...created, metadata: { ...created.metadata, annotations: { a: 'b' } } });
    expect(annotated.metadata?.generation).toBe(1);
    const relabeled = await slices().update({ ...annotated, metadata: { ...annotated.metadata, labels: { x: 'y' } } });
    expect(relabeled.metadata?.generation).toBe(2);
    const moved = await slices().update({ ...relabeled, endpoints: [{ addresses: ['10.1.2.4'] }] });
    expect(moved.metadata?.generation).toBe(3);
  });

  it('keeps addressType immutable', async () => {
    const created = await slices().create(slice());
    const s = await statusOf(() => slices().update({ ...created, addressType: 'FQDN', endpoints: [{ addresses: ['web.example.com'] }] }));
    expect(s.message).toBe('EndpointSlice.discovery.k8s.io "web-abc" is invalid: addressType: Invalid value: "FQDN": field is immutable');
  });

  it('checks the address type', async () => {
    await invalid(
      slice((s) => (s.addressType = '')),
      'addressType: Required value',
    );
    await invalid(
      slice((s) => (s.addressType = 'IP')),
      'addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"',
    );
  });

  it.each([
    ['IPv4', 'fd00::1', ['endpoints[0].addresses[0]: Invalid value: "fd00::1": must be a valid IPv4 address']],
    ['IPv4', '127.0.0.1', ['endpoints[0].addresses[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)']],
    ['IPv4', '0.0.0.0', ['endpoints[0].addresses[0]: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)']],
    [
      'IPv4',
      '169.254.169.254',
      ['endpoints[0].addresses[0]: Invalid value: "169.254.169.254": may not be in the link-local range (169.254.0.0/16, fe80::/10)'],
    ],
    ['IPv4', '224.0.0.1', ['endpoints[0].addresses[0]: Invalid value: "224.0.0.1": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)']],
    [
      'IPv4',
      'x',
      [
        'endpoints[0].addresses[0]: Invalid value: "x": must be a valid IPv4 address',
        'endpoints[0].addresses[0]: Invalid value: "x": must be a valid IP address',
      ],
    ],
    ['IPv6', '10.0.0.1', ['endpoints[0].addresses[0]: Invalid value: "10.0.0.1": must be a valid IPv6 address']],
    ['IPv6', 'fe80::1', ['endpoints[0].addresses[0]: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)']],
    ['FQDN', 'localhost', ['endpoints[0].addresses[0]: Invalid value: "localhost": should be a domain with at least two segments separated by dots']],
    [
      'FQDN',
      'Web.example.com',
      [
        "endpoints[0].addresses[0]: Invalid value: \"Web.example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
  ])('checks a %s address %j', async (addressType, address, messages) => {
    await invalid(
      slice((s) => {
        s.addressType = addressType;
        s.endpoints = [{ addresses: [address] }];
      }),
      messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`,
    );
  });

  it('accepts an FQDN with a trailing dot and checks endpoint limits', async () => {
    await slices().create(
      slice((s) => {
        s.addressType = 'FQDN';
        s.endpoints = [{ addresses: ['web.example.com.'] }];
      }),
    );
    await invalid(
      slice((s) => (s.endpoints = [{ addresses: [] }])),
      'endpoints[0].addresses: Required value: must contain at least 1 address',
    );
    await invalid(
      slice((s) => (s.endpoints = [{ addresses: Array.from({ length: 101 }, (_, i) => `10.0.${i >> 8}.${(i % 250) + 1}`) }])),
      'endpoints[0].addresses: Too many: 101: must have at most 100 items',
    );
    await invalid(
      slice((s) => (s.endpoints = Array.from({ length: 1001 }, () => ({ addresses: ['10.0.0.1'] })))),
      'endpoints: Too many: 1001: must have at most 1000 items',
    );
  });

  it('checks hostname, nodeName and hints', async () => {
    await invalid(
      slice((s) => (s.endpoints![0]!.hostname = 'a.b')),
      'endpoints[0].hostname: Invalid value: "a.b": must not contain dots',
    );
    await invalid(
      slice((s) => (s.endpoints![0]!.nodeName = 'Node_1')),
      "endpoints[0].nodeName: Invalid value: \"Node_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
    await invalid(
      slice((s) => (s.endpoints![0]!.hints = { forZones: [{ name: 'a' }, { name: 'a' }] })),
      'endpoints[0].hints.forZones[1].name: Duplicate value: "a"',
    );
    await invalid(
      slice((s) => (s.endpoints![0]!.hints = { forZones: Array.from({ length: 9 }, (_, i) => ({ name: `z${i}` })) })),
      'endpoints[0].hints.forZones: Too many: 9: must have at most 8 items',
    );
  });

  it('checks ports', async () => {
    await invalid(
      slice(
        (s) =>
          (s.ports = [
            { name: 'http', port: 80 },
            { name: 'http', port: 81 },
          ]),
      ),
      'ports[1].name: Duplicate value: "http"',
    );
    await invalid(
      slice((s) => (s.ports = [{ port: 80 }, { port: 81 }])),
      'ports[1].name: Duplicate value: ""',
    );
    await invalid(
      slice((s) => (s.ports = [{ name: 'dns', protocol: 'ICMP' }])),
      'ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
    );
    await invalid(
      slice((s) => (s.ports = [{ name: 'h', appProtocol: 'a/b/c' }])),
      "ports[0].appProtocol: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    );
  });

  it('prints AddressType, Ports and Endpoints as kubectl shows them', async () => {
    await slices().create(
      slice((s) => {
        s.ports = [{ name: 'a', port: 80 }, { name: 'b', port: 443 }, { name: 'c' }, { name: 'd', port: 9 }];
        s.endpoints = [{ addresses: ['10.0.0.1', '10.0.0.2'] }, { addresses: ['10.0.0.3', '10.0.0.4'] }];
      }, 'many'),
    );
    await slices().create(
      slice((s) => {
        s.ports = [];
        s.endpoints = [];
      }, 'none'),
    );
    const res = await cluster.fetch(
      new Request('http://memkube/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', {
        headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
      }),
    );
    const t = (await res.json()) as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'AddressType', 'Ports', 'Endpoints', 'Age']);
    expect(t.rows.map((r) => r.cells.slice(0, 4))).toEqual([
      ['many', 'IPv4', '80,443,c + 1 more...', '10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...'],
      ['none', 'IPv4', '<unset>', '<unset>'],
    ]);
  });
});
