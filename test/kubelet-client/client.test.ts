/** The API server's client of node agents: which address, which port, and its failures in Go's words. */
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKubeletClient } from '../../src/kubelet-client/index.js';
import { readStreamedBody } from '../../src/machinery/streamed-body.js';
import { nodeFor, startFakeKubelet, type FakeKubelet } from '../support/fake-kubelet.js';

const node = (addresses: { type: string; address: string }[], port?: number) => ({
  metadata: { name: 'n' },
  status: { addresses, ...(port !== undefined ? { daemonEndpoints: { kubeletEndpoint: { Port: port } } } : {}) },
});

describe('locate', () => {
  const client = createKubeletClient();

  it('takes the first address of the first preferred type: Hostname, InternalDNS, InternalIP, ExternalDNS, ExternalIP', () => {
    const addresses = [
      { type: 'ExternalIP', address: '203.0.113.5' },
      { type: 'InternalIP', address: '10.0.0.5' },
      { type: 'InternalIP', address: '10.0.0.6' },
      { type: 'InternalDNS', address: 'n.internal' },
    ];
    expect(client.locate(node(addresses, 10255))).toEqual({ scheme: 'https', host: 'n.internal', port: '10255', agent: true });
    expect(client.locate(node(addresses.slice(0, 3)))).toEqual({ scheme: 'https', host: '10.0.0.5', port: '10250', agent: true });
    expect(createKubeletClient({ preferredAddressTypes: ['ExternalIP', 'InternalIP'] }).locate(node(addresses)).host).toBe('203.0.113.5');
  });

  it('uses the default port when the node reports none, or 0', () => {
    expect(client.locate(node([{ type: 'Hostname', address: 'n' }], 0)).port).toBe('10250');
    expect(createKubeletClient({ port: 11250 }).locate(node([{ type: 'Hostname', address: 'n' }])).port).toBe('11250');
  });

  it("fails with Kubernetes' words, listing the known addresses as Go prints them", () => {
    expect(() => client.locate(node([]))).toThrow('no preferred addresses found; known addresses: []');
    expect(() => createKubeletClient({ preferredAddressTypes: ['Hostname'] }).locate(node([{ type: 'InternalIP', address: '1.2.3.4' }]))).toThrow(
      'no preferred addresses found; known addresses: [{InternalIP 1.2.3.4}]',
    );
    expect(() => client.locate({ metadata: { name: 'n' } })).toThrow('no preferred addresses found; known addresses: []');
  });
});

describe('createKubeletClient', () => {
  it('refuses a certificate without its key', () => {
    expect(() => createKubeletClient({ cert: 'x' })).toThrow('the kubelet client certificate and key must be given together');
  });

  it('reads the certificate files when made', () => {
    expect(() => createKubeletClient({ caFile: '/nonexistent/ca.pem' })).toThrow(/ENOENT/);
  });
});

describe('send', () => {
  let kubelet: FakeKubelet;
  let silent: TcpServer;
  let silentPort: number;
  const held: import('node:net').Socket[] = [];
  beforeAll(async () => {
    kubelet = await startFakeKubelet();
    // Accepts connections and never answers the TLS client hello.
    silent = createTcpServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    await kubelet.close();
    for (const socket of held) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('sends the method, path, query and body, and answers the status, headers and a streamed body', async () => {
    kubelet.handle = (_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-one': '1' });
      res.end('{"done":true}');
    };
    const client = createKubeletClient({ ca: kubelet.servingCA, cert: kubelet.client.cert, key: kubelet.client.key });
    const location = client.locate(nodeFor('n1', kubelet.port));
    const res = await client.send(location, { method: 'PUT', path: '/run/a/b', query: 'x=1', body: new TextEncoder().encode('hi'), headers: { 'x-in': 'y' } });
    expect(res.status).toBe(201);
    expect(res.headers['x-one']).toBe('1');
    expect(res.body.contentType).toBe('application/json');
    expect(Buffer.from(await readStreamedBody(res.body)).toString()).toBe('{"done":true}');
    expect(kubelet.requests.at(-1)).toMatchObject({ method: 'PUT', url: '/run/a/b?x=1', body: 'hi', clientCN: 'kube-apiserver-kubelet-client' });
    expect(kubelet.requests.at(-1)!.headers['x-in']).toBe('y');
  });

  it('presents no client certificate to another port of the node', async () => {
    const client = createKubeletClient({ cert: kubelet.client.cert, key: kubelet.client.key });
    const res = await client.send({ scheme: 'https', host: '127.0.0.1', port: String(kubelet.port), agent: false }, { method: 'GET', path: '/' });
    await readStreamedBody(res.body);
    expect(kubelet.requests.at(-1)!.clientCN).toBeUndefined();
  });

  it('gives up connecting after the timeout, in Go words', async () => {
    const client = createKubeletClient({ timeoutMs: 50 });
    await expect(client.send({ scheme: 'https', host: '127.0.0.1', port: String(silentPort), agent: true }, { method: 'GET', path: '/' })).rejects.toThrow(
      'net/http: TLS handshake timeout',
    );
  });

  it('is aborted by its signal before the answer', async () => {
    const client = createKubeletClient({ timeoutMs: 5000 });
    const abort = new AbortController();
    const sent = client.send({ scheme: 'https', host: '127.0.0.1', port: String(silentPort), agent: true }, { method: 'GET', path: '/' }, abort.signal);
    abort.abort();
    await expect(sent).rejects.toThrow('context canceled');
  });
});
