/**
 * A read-only registry (the distribution API's pull side: `/v2/`, manifests and blobs) serving the
 * harness's test images on 127.0.0.1, so that the CRI plugin's PullImage of `memkube.test/...` works
 * without a network: containerd's hosts.toml for `memkube.test` points at it (see start.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ImageSet } from './image.js';

/** A running test registry. */
export interface TestRegistry {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Each request's method and path, in order, for tests that care what containerd fetched. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves `set` for the registry host `host` (the part of each image name before the first `/`). */
export async function startTestRegistry(set: ImageSet, host: string): Promise<TestRegistry> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    handle(set, host, req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function handle(set: ImageSet, host: string, req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Docker-Distribution-API-Version', 'registry/2.0');
  if (req.method !== 'GET' && req.method !== 'HEAD') return error(res, 405, 'UNSUPPORTED', 'this registry only serves pulls');
  const path = new URL(req.url ?? '/', 'http://registry').pathname;
  if (path === '/v2/' || path === '/v2') return send(req, res, 200, 'application/json', Buffer.from('{}'));
  // /v2/<name>/manifests/<reference> and /v2/<name>/blobs/<digest>; <name> may hold slashes.
  const match = /^\/v2\/(.+)\/(manifests|blobs)\/([^/]+)$/.exec(path);
  if (!match) return error(res, 404, 'NOT_FOUND', `no route ${path}`);
  const [, name, kind, reference] = match as unknown as [string, string, string, string];
  if (kind === 'blobs') {
    const blob = set.blobs.get(reference);
    if (!blob || !belongsTo(set, host, name, reference)) return error(res, 404, 'BLOB_UNKNOWN', `blob unknown to registry: ${reference}`);
    return send(req, res, 200, 'application/octet-stream', blob.data, blob.digest);
  }
  const manifest = reference.startsWith('sha256:')
    ? [...set.manifests].find(([image, blob]) => blob.digest === reference && repository(host, image) === name)?.[1]
    : set.manifests.get(`${host}/${name}:${reference}`);
  if (!manifest) return error(res, 404, 'MANIFEST_UNKNOWN', `manifest unknown: ${name}:${reference}`);
  return send(req, res, 200, manifest.mediaType, manifest.data, manifest.digest);
}

/** Whether blob `digest` is part of an image of repository `name` (a registry scopes blobs by repository). */
function belongsTo(set: ImageSet, host: string, name: string, digest: string): boolean {
  return [...set.manifests].some(
    ([image, manifest]) => repository(host, image) === name && (manifest.digest === digest || String(manifest.data).includes(digest)),
  );
}

/** `memkube.test/busybox:1` → `busybox` for host `memkube.test`. */
function repository(host: string, image: string): string | undefined {
  if (!image.startsWith(`${host}/`)) return undefined;
  const rest = image.slice(host.length + 1);
  const colon = rest.lastIndexOf(':');
  return colon > rest.lastIndexOf('/') ? rest.slice(0, colon) : rest;
}

function send(req: IncomingMessage, res: ServerResponse, status: number, contentType: string, body: Buffer, digest?: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', body.length);
  if (digest) res.setHeader('Docker-Content-Digest', digest);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The distribution API's error body: `{"errors":[{"code","message"}]}`. */
function error(res: ServerResponse, status: number, code: string, message: string): void {
  const body = Buffer.from(JSON.stringify({ errors: [{ code, message }] }));
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
