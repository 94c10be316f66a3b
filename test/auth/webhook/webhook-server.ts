/**
 * A SubjectAccessReview webhook for tests: HTTPS on 127.0.0.1 with a CA-signed certificate, an
 * answer chosen per test, every request recorded; and the kubeconfig that points at it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { signClientCertificate, generateServingCertificate, type CertificateAndKey, type ServingCertificate } from '../../../src/pki/self-signed.js';

/** One request the webhook received. */
export interface Received {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The common name of the client certificate presented, if any. */
  readonly clientCN?: string;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface TestWebhook {
  readonly port: number;
  readonly url: string;
  readonly received: Received[];
  handler: Handler;
  close(): Promise<void>;
}

let certs: (ServingCertificate & { readonly client: CertificateAndKey }) | undefined;
/** One CA for the whole run: a serving certificate for 127.0.0.1 and a client certificate `kube-apiserver`. */
export async function testCertificates(): Promise<ServingCertificate & { readonly client: CertificateAndKey }> {
  if (!certs) {
    const serving = await generateServingCertificate({ hosts: ['127.0.0.1'], commonName: 'authz-webhook' });
    certs = {
      ...serving,
      client: await signClientCertificate({ ca: serving.ca, commonName: 'kube-apiserver', now: Date.now(), validityMs: 365 * 24 * 3_600_000 }),
    };
  }
  return certs;
}

/** Answers `status` in a SubjectAccessReview of the version the request was sent in. */
export function answer(status: Record<string, unknown>): Handler {
  return (_req, res, body) => {
    const apiVersion = (JSON.parse(body) as { apiVersion: string }).apiVersion;
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ apiVersion, kind: 'SubjectAccessReview', status }));
  };
}

/** Starts a webhook; `requireClientCert` makes it refuse clients without a certificate from the CA. */
export async function startWebhook(options: { requireClientCert?: boolean } = {}): Promise<TestWebhook> {
  const c = await testCertificates();
  const received: Received[] = [];
  const hook: { handler: Handler } = { handler: answer({ allowed: true }) };
  const server: Server = createServer(
    { cert: c.serving.cert, key: c.serving.key, ...(options.requireClientCert ? { ca: [c.ca.cert], requestCert: true, rejectUnauthorized: true } : {}) },
    (req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const peer = (req.socket as TLSSocket).getPeerCertificate?.();
        const cn = peer && typeof peer.subject?.CN === 'string' ? peer.subject.CN : undefined;
        received.push({ url: req.url ?? '', headers: req.headers, body, ...(cn ? { clientCN: cn } : {}) });
        hook.handler(req, res, body);
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `https://127.0.0.1:${port}/authorize`,
    received,
    get handler() {
      return hook.handler;
    },
    set handler(h: Handler) {
      hook.handler = h;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A fresh directory for kubeconfig files. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'memkube-authz-webhook-'));
}

/**
 * Writes a kubeconfig for `server` into `dir`, the CA (and client certificate) as files beside it,
 * named relative to the kubeconfig; answers its path.
 */
export async function writeKubeconfig(
  dir: string,
  server: string,
  options: { clientCert?: boolean; token?: string; tokenFile?: string; name?: string } = {},
): Promise<string> {
  const c = await testCertificates();
  writeFileSync(join(dir, 'ca.crt'), c.ca.cert);
  let user = '';
  if (options.clientCert) {
    writeFileSync(join(dir, 'client.crt'), c.client.cert);
    writeFileSync(join(dir, 'client.key'), c.client.key);
    user += '    client-certificate: client.crt\n    client-key: client.key\n';
  }
  if (options.token) user += `    token: ${options.token}\n`;
  if (options.tokenFile) user += `    tokenFile: ${options.tokenFile}\n`;
  const path = join(dir, options.name ?? 'kubeconfig.yaml');
  writeFileSync(
    path,
    `apiVersion: v1
kind: Config
clusters:
- name: authz
  cluster:
    server: ${server}
    certificate-authority: ca.crt
users:
- name: apiserver
  user:
${user || '    {}\n'}contexts:
- name: webhook
  context:
    cluster: authz
    user: apiserver
current-context: webhook
`,
  );
  return path;
}
