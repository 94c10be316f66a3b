/**
 * A fake node agent for tests of `pods/log` and `nodes/proxy`: an HTTPS server on 127.0.0.1 with a
 * serving certificate from src/pki that asks for a client certificate, records every request (its
 * method, path with query, headers, body and the client certificate's common name) and answers with
 * the handler a test sets. Also the API server's client certificate, signed by a CA the fake trusts.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { generateServingCertificate, signClientCertificate, type CertificateAndKey } from '../../src/pki/self-signed.js';

/** One request the fake agent received. */
export interface SeenRequest {
  method: string;
  /** Path and query as sent on the request line. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The common name of the client certificate presented, or undefined without one. */
  clientCN?: string;
  /** Whether the presented client certificate chains to the CA the fake trusts. */
  clientAuthorized: boolean;
}

/** A running fake agent. */
export interface FakeKubelet {
  readonly port: number;
  /** The CA that issued the agent's serving certificate (for `kubeletClient.ca`). */
  readonly servingCA: string;
  /** The API server's client certificate and key, issued by the CA the agent trusts. */
  readonly client: CertificateAndKey;
  readonly requests: SeenRequest[];
  /** How the next requests are answered; by default `200 text/plain` "ok\n". */
  handle: (req: IncomingMessage, res: ServerResponse, seen: SeenRequest) => void;
  /** Resolves when a request's response was closed (by either side), in order. */
  closed(): Promise<void>;
  close(): Promise<void>;
}

let material: Promise<{ serving: CertificateAndKey; servingCA: string; clientCA: CertificateAndKey; client: CertificateAndKey }> | undefined;

/** Certificates are made once per test file: making them is the slow part. */
function certificates() {
  material ??= (async () => {
    const serving = await generateServingCertificate({ hosts: ['127.0.0.1', 'localhost'], commonName: 'fake-kubelet' });
    const clientIssuer = await generateServingCertificate({ hosts: ['unused.example'], commonName: 'kubelet-client-ca' });
    const client = await signClientCertificate({
      ca: clientIssuer.ca,
      commonName: 'kube-apiserver-kubelet-client',
      organizations: ['system:masters'],
      now: Date.now(),
      validityMs: 3_600_000,
    });
    return { serving: serving.serving, servingCA: serving.ca.cert, clientCA: clientIssuer.ca, client: { cert: client.cert, key: client.key } };
  })();
  return material;
}

/** Starts a fake node agent on a free port of 127.0.0.1. */
export async function startFakeKubelet(): Promise<FakeKubelet> {
  const certs = await certificates();
  const requests: SeenRequest[] = [];
  const closings: (() => void)[] = [];
  const closedPromises: Promise<void>[] = [];
  let closedIndex = 0;
  const fake: FakeKubelet = {
    port: 0,
    servingCA: certs.servingCA,
    client: certs.client,
    requests,
    handle: (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok\n');
    },
    closed: () => {
      const p = closedPromises[closedIndex];
      if (p) closedIndex++;
      return p ?? new Promise<void>((resolve) => closings.push(resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer(
    { cert: certs.serving.cert, key: certs.serving.key, ca: certs.clientCA.cert, requestCert: true, rejectUnauthorized: false },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const socket = req.socket as TLSSocket;
        const peer = socket.getPeerCertificate();
        const seen: SeenRequest = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          clientCN: peer && Object.keys(peer).length > 0 ? (peer.subject?.CN as string | undefined) : undefined,
          clientAuthorized: socket.authorized,
        };
        requests.push(seen);
        const done = new Promise<void>((resolve) => res.once('close', resolve));
        const waiter = closings.shift();
        if (waiter) void done.then(waiter);
        else closedPromises.push(done);
        fake.handle(req, res, seen);
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  (fake as { port: number }).port = (server.address() as AddressInfo).port;
  return fake;
}

/** A Node whose agent is the fake, reached at 127.0.0.1. */
export function nodeFor(name: string, port: number, addresses = [{ type: 'InternalIP', address: '127.0.0.1' }]) {
  return { metadata: { name }, status: { addresses, daemonEndpoints: { kubeletEndpoint: { Port: port } } } };
}
