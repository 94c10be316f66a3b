/**
 * EgressSelectorConfiguration: decoding its two versions, kube-apiserver's validation messages,
 * the `--egress-selector-config-file` loader's messages, and the dialers a loaded file gives.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer, get as httpsGet, type Server as HttpsServer } from 'node:https';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildEgressSelector,
  EgressConfigError,
  loadEgressSelectorConfiguration,
  parseEgressSelectorConfiguration,
  readEgressSelectorConfiguration,
  validateEgressSelectorConfiguration,
  type EgressSelectorConfiguration,
} from '../../../src/config/egress/index.js';
import { aggregateMessage, fieldErrorMessage } from '../../../src/machinery/field-errors.js';
import { generateServingCertificate, type ServingCertificate } from '../../../src/pki/self-signed.js';

let dir: string;
let certs: ServingCertificate;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'memkube-egress-config-'));
  certs = await generateServingCertificate({ hosts: ['127.0.0.1'], commonName: 'egress-config' });
  writeFileSync(join(dir, 'ca.crt'), certs.ca.cert);
  writeFileSync(join(dir, 'client.crt'), certs.serving.cert);
  writeFileSync(join(dir, 'client.key'), certs.serving.key);
  writeFileSync(join(dir, 'other.key'), certs.ca.key);
  writeFileSync(join(dir, 'not-pem'), 'hello');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const messages = (config: EgressSelectorConfiguration, exists: (p: string) => boolean = () => true) =>
  validateEgressSelectorConfiguration(config, { exists }).map(fieldErrorMessage);

const config = (egressSelections: EgressSelectorConfiguration['egressSelections']): EgressSelectorConfiguration => ({
  apiVersion: 'apiserver.k8s.io/v1beta1',
  kind: 'EgressSelectorConfiguration',
  egressSelections,
});

describe('decoding', () => {
  const yaml = (apiVersion: string, name: string) => `apiVersion: ${apiVersion}
kind: EgressSelectorConfiguration
egressSelections:
- name: ${name}
  connection:
    proxyProtocol: HTTPConnect
    transport:
      tcp:
        url: https://127.0.0.1:8131
        tlsConfig:
          caBundle: /etc/ca.crt
          clientKey: /etc/client.key
          clientCert: /etc/client.crt
          tlsServerName: proxy.example
- name: etcd
  connection:
    proxyProtocol: Direct
`;

  it.each(['apiserver.k8s.io/v1beta1', 'apiserver.k8s.io/v1alpha1'])('reads %s, renaming the deprecated master selection controlplane', (apiVersion) => {
    const decoded = parseEgressSelectorConfiguration(yaml(apiVersion, 'master'));
    expect(decoded.egressSelections).toEqual([
      {
        name: 'controlplane',
        connection: {
          proxyProtocol: 'HTTPConnect',
          transport: {
            tcp: {
              url: 'https://127.0.0.1:8131',
              tlsConfig: { caBundle: '/etc/ca.crt', clientKey: '/etc/client.key', clientCert: '/etc/client.crt', tlsServerName: 'proxy.example' },
            },
          },
        },
      },
      { name: 'etcd', connection: { proxyProtocol: 'Direct' } },
    ]);
    // Only the exact name is renamed (the conversion compares it as written).
    expect(parseEgressSelectorConfiguration(yaml(apiVersion, 'Master')).egressSelections?.[0]?.name).toBe('Master');
  });

  it('has no apiserver.config.k8s.io/v1 version, and refuses unknown and duplicated fields', () => {
    expect(() => parseEgressSelectorConfiguration(yaml('apiserver.config.k8s.io/v1', 'cluster'))).toThrow(
      new EgressConfigError('no kind "EgressSelectorConfiguration" is registered for version "apiserver.config.k8s.io/v1"'),
    );
    expect(() => parseEgressSelectorConfiguration(yaml('apiserver.k8s.io/v1beta1', 'cluster').replace('tlsServerName:', 'serverName:'))).toThrow(
      'strict decoding error: unknown field "egressSelections[0].connection.transport.tcp.tlsConfig.serverName"',
    );
    expect(() => parseEgressSelectorConfiguration(yaml('apiserver.k8s.io/v1beta1', 'cluster').replace('- name: etcd\n', '- name: etcd\n  name: x\n'))).toThrow(
      'strict decoding error: json: duplicate field "egressSelections[1].name"',
    );
  });

  it('answers a clear error for anything that is not a configuration, never a crash', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        try {
          parseEgressSelectorConfiguration(text);
        } catch (e) {
          expect(e).toBeInstanceOf(EgressConfigError);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('validation (ValidateEgressSelectorConfiguration)', () => {
  it('accepts each protocol with its transport', () => {
    expect(
      messages(
        config([
          { name: 'controlplane', connection: { proxyProtocol: 'Direct' } },
          { name: 'cluster', connection: { proxyProtocol: 'HTTPConnect', transport: { uds: { udsName: '/run/proxy.sock' } } } },
          { name: 'etcd', connection: { proxyProtocol: 'GRPC', transport: { uds: { udsName: '/run/konnectivity.sock' } } } },
        ]),
      ),
    ).toEqual([]);
    expect(messages(config([{ name: 'cluster', connection: { proxyProtocol: 'HTTPConnect', transport: { tcp: { url: 'http://proxy:8131' } } } }]))).toEqual([]);
  });

  it("reports each protocol and transport problem with upstream's text", () => {
    const cases: [EgressSelectorConfiguration['egressSelections'], string[]][] = [
      [
        [{ name: 'cluster', connection: { proxyProtocol: 'Direct', transport: {} } }],
        ['service.connection.transport: Invalid value: "direct": config must be absent for direct connect'],
      ],
      [
        [{ name: 'cluster', connection: { proxyProtocol: 'HTTPConnect' } }],
        ['service.connection.transport: Required value: transport must be set for HTTPConnect'],
      ],
      [
        [{ name: 'cluster', connection: { proxyProtocol: 'HTTPConnect', transport: {} } }],
        ['service.connection.tcp: Required value: One of TCP or UDS must be set'],
      ],
      [
        [{ name: 'cluster', connection: { proxyProtocol: 'HTTPConnect', transport: { tcp: { url: 'http://p:1' }, uds: { udsName: '/s' } } } }],
        ['service.connection.tcp: Invalid value: {"URL":"http://p:1","TLSConfig":null}: TCP and UDS cannot both be set'],
      ],
      [
        [{ name: 'cluster', connection: { proxyProtocol: 'HTTPConnect', transport: { uds: {} } } }],
        ['service.connection.udsName: Invalid value: "nil": must be present for UDS connections'],
      ],
      [
        [{ name: 'cluster', connection: { proxyProtocol: 'HTTPConnect', transport: { tcp: { url: 'http://p:1', tlsConfig: {} } } } }],
        ['service.connection.tlsConfig: Invalid value: "nil": config must not be present when using HTTP'],
      ],
      [
        [{ name: 'cluster', connection: { proxyProtocol: 'HTTPConnect', transport: { tcp: { url: 'tcp://p:1' } } } }],
        ['service.connection.url: Invalid value: "tcp://p:1": supported connection protocols are http:// and https://'],
      ],
      [
        [{ name: 'cluster', connection: { proxyProtocol: 'HTTPConnect', transport: { tcp: { url: 'https://p:1' } } } }],
        ['service.connection.tlsConfig: Required value: TLSConfig must be present when using HTTPS'],
      ],
      [
        [{ name: 'cluster', connection: { proxyProtocol: 'HTTPConnect', transport: { tcp: { url: 'https://p:1', tlsConfig: {} } } } }],
        [
          'service.connection.tlsConfig.clientCert: Invalid value: "nil": Using TLS requires clientCert',
          'service.connection.tlsConfig.clientKey: Invalid value: "nil": Using TLS requires requires clientKey',
        ],
      ],
      [[{ name: 'etcd', connection: { proxyProtocol: 'GRPC' } }], ['service.connection.transport: Required value: transport must be set for GRPC']],
      [
        [{ name: 'etcd', connection: { proxyProtocol: 'GRPC', transport: { tcp: { url: 'http://p:1' } } } }],
        ['service.connection.uds: Required value: UDS must be set with GRPC'],
      ],
      [
        [{ name: 'etcd', connection: { proxyProtocol: 'http' } }],
        ['service.connection.protocol: Unsupported value: "http": supported values: "Direct", "HTTPConnect", "GRPC"'],
      ],
      [[{ name: 'etcd' }], ['service.connection.protocol: Unsupported value: "": supported values: "Direct", "HTTPConnect", "GRPC"']],
    ];
    for (const [selections, expected] of cases) expect(messages(config(selections))).toEqual(expected);
  });

  it('checks that the TLS files exist', () => {
    const tls = { caBundle: '/no/ca.crt', clientCert: '/no/client.crt', clientKey: '/no/client.key' };
    expect(
      messages(
        config([{ name: 'cluster', connection: { proxyProtocol: 'HTTPConnect', transport: { tcp: { url: 'https://p:1', tlsConfig: tls } } } }]),
        () => false,
      ),
    ).toEqual([
      'service.connection.tlsConfig.caBundle: Invalid value: "/no/ca.crt": TLS config ca bundle does not exist',
      'service.connection.tlsConfig.clientCert: Invalid value: "/no/client.crt": TLS client cert does not exist',
      'service.connection.tlsConfig.clientKey: Invalid value: "/no/client.key": TLS client key does not exist',
    ]);
  });

  it('checks names after protocols: lower-cased, known, once each', () => {
    expect(
      messages(
        config([
          { name: 'ControlPlane', connection: { proxyProtocol: 'Direct' } },
          { name: 'controlplane', connection: { proxyProtocol: 'Direct' } },
          { name: 'nodes', connection: { proxyProtocol: 'Bogus' } },
        ]),
      ),
    ).toEqual([
      'service.connection.protocol: Unsupported value: "Bogus": supported values: "Direct", "HTTPConnect", "GRPC"',
      'service.connection[1]: Duplicate value: "controlplane"',
      'service.connection: Unsupported value: "nodes": supported values: "cluster", "controlplane", "etcd"',
    ]);
  });
});

describe('loadEgressSelectorConfiguration (--egress-selector-config-file)', () => {
  const fail = (path: string): string => {
    try {
      loadEgressSelectorConfiguration(path);
    } catch (e) {
      expect(e).toBeInstanceOf(EgressConfigError);
      return (e as Error).message;
    }
    throw new Error('loaded');
  };
  const header = 'apiVersion: apiserver.k8s.io/v1beta1\nkind: EgressSelectorConfiguration\n';

  it("refuses a missing, unreadable, undecodable or invalid file with kube-apiserver's messages", () => {
    expect(fail(join(dir, 'none.yaml'))).toBe(`egress-selector-config-file ${join(dir, 'none.yaml')} does not exist`);
    expect(() => readEgressSelectorConfiguration(join(dir, 'none.yaml'))).toThrow(
      `unable to read egress selector configuration from "${join(dir, 'none.yaml')}" [open ${join(dir, 'none.yaml')}: no such file or directory]`,
    );
    expect(fail(dir)).toBe(`failed to read egress selector config: unable to read egress selector configuration from "${dir}" [read ${dir}: is a directory]`);
    expect(fail(file('bad.yaml', `${header}egressSelections: {}\n`))).toMatch(/^failed to read egress selector config: /);
    expect(fail(file('invalid.yaml', `${header}egressSelections:\n- name: nodes\n  connection:\n    proxyProtocol: Direct\n- name: cluster\n`))).toBe(
      'failed to validate egress selector configuration: [service.connection.protocol: Unsupported value: "": supported values: "Direct", "HTTPConnect", "GRPC", service.connection: Unsupported value: "nodes": supported values: "cluster", "controlplane", "etcd"]',
    );
    expect(aggregateMessage([])).toBe('[]');
  });

  it('refuses TLS files it cannot use, and a GRPC selection memkube would dial', () => {
    const tcp = (tls: string) =>
      `${header}egressSelections:\n- name: cluster\n  connection:\n    proxyProtocol: HTTPConnect\n    transport:\n      tcp:\n        url: https://127.0.0.1:8131\n        tlsConfig:\n${tls}`;
    expect(fail(file('not-pem.yaml', tcp(`          clientCert: ${join(dir, 'not-pem')}\n          clientKey: ${join(dir, 'client.key')}\n`)))).toBe(
      `failed to setup egress selector: failed to create dialer for egressSelection "cluster": failed to read key pair ${join(dir, 'not-pem')} & ${join(dir, 'client.key')}, got tls: failed to find any PEM data in certificate input`,
    );
    expect(fail(file('mismatch.yaml', tcp(`          clientCert: ${join(dir, 'client.crt')}\n          clientKey: ${join(dir, 'other.key')}\n`)))).toBe(
      `failed to setup egress selector: failed to create dialer for egressSelection "cluster": failed to read key pair ${join(dir, 'client.crt')} & ${join(dir, 'other.key')}, got tls: private key does not match public key`,
    );
    expect(
      fail(
        file(
          'bad-ca.yaml',
          tcp(
            `          caBundle: ${join(dir, 'not-pem')}\n          clientCert: ${join(dir, 'client.crt')}\n          clientKey: ${join(dir, 'client.key')}\n`,
          ),
        ),
      ),
    ).toBe('failed to setup egress selector: failed to create dialer for egressSelection "cluster": failed to append CA cert to the cert pool');
    const grpc = `${header}egressSelections:\n- name: cluster\n  connection:\n    proxyProtocol: GRPC\n    transport:\n      uds:\n        udsName: /run/k.sock\n`;
    expect(fail(file('grpc.yaml', grpc))).toBe(
      'failed to setup egress selector: memkube has no konnectivity client: egressSelection "cluster" uses proxyProtocol GRPC; use HTTPConnect or Direct',
    );
    // etcd's GRPC selection is never dialed by memkube.
    expect(loadEgressSelectorConfiguration(file('grpc-etcd.yaml', grpc.replace('name: cluster', 'name: etcd'))).dialerFor('cluster')).toBeUndefined();
  });

  it('gives no dialer or agent for Direct and missing selections, and working ones for HTTPConnect', async () => {
    const target = createHttpsServer({ cert: certs.serving.cert, key: certs.serving.key }, (_req, res) => res.end('discovered'));
    const tunnels: string[] = [];
    const proxy: Server = createHttpServer();
    const open: Socket[] = [];
    proxy.on('connect', (req, socket: Socket) => {
      tunnels.push(req.url ?? '');
      open.push(socket);
      const [host, port] = (req.url ?? '').split(':');
      const upstream = netConnect({ host, port: Number(port) }, () => {
        socket.write('HTTP/1.1 200 OK\r\n\r\n');
        upstream.pipe(socket).pipe(upstream);
      });
      open.push(upstream);
    });
    const servers: (Server | HttpsServer)[] = [target, proxy];
    for (const s of servers) await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    const targetPort = (target.address() as AddressInfo).port;
    const proxyPort = (proxy.address() as AddressInfo).port;
    try {
      const selector = loadEgressSelectorConfiguration(
        file(
          'ok.yaml',
          `apiVersion: apiserver.k8s.io/v1alpha1\nkind: EgressSelectorConfiguration\negressSelections:\n- name: master\n  connection:\n    proxyProtocol: Direct\n- name: cluster\n  connection:\n    proxyProtocol: HTTPConnect\n    transport:\n      tcp:\n        url: http://127.0.0.1:${proxyPort}\n`,
        ),
      );
      expect(selector.dialerFor('controlplane')).toBeUndefined();
      expect(selector.agentFor('controlplane')).toBeUndefined();
      const agent = selector.agentFor('cluster')!;
      expect(selector.agentFor('cluster')).toBe(agent);
      const body = await new Promise<string>((resolve, reject) => {
        httpsGet({ host: '127.0.0.1', port: targetPort, path: '/', ca: [certs.ca.cert], agent }, (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve(text));
        }).on('error', reject);
      });
      expect(body).toBe('discovered');
      expect(tunnels).toEqual([`127.0.0.1:${targetPort}`]);
      expect(buildEgressSelector(config([])).agentFor('cluster')).toBeUndefined();
      agent.destroy();
    } finally {
      for (const s of open) s.destroy();
      for (const s of servers) {
        s.closeAllConnections();
        await new Promise((resolve) => s.close(resolve));
      }
    }
  });
});
