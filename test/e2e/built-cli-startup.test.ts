/**
 * What the built command (`dist/cli/main.js` and its bundle) loads before it answers: a start pays
 * for every module it loads, so what only some requests need is loaded on their first use. Guards
 * the bundle's lazy Node modules (TLS, HTTPS, gzip, fs/promises), prom-client without its process
 * metrics (which load OpenTelemetry's API), an ASCII bundle (which V8 keeps one byte a character),
 * written in the form the loader compiles, without the commands that never run from it or zod's
 * messages in languages other than English.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_CLI } from '../support/serve.js';

const BUNDLE = 'dist/cli/memkube.cjs';

/** Written into the served process with --require: what it loaded, at its exit. */
const RECORDER = `
const { writeFileSync } = require('node:fs');
process.on('exit', () => {
  writeFileSync(process.env.MEMKUBE_LOADED_FILE, JSON.stringify({
    builtins: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length)),
    files: Object.keys(require.cache),
    // The ids of the zod schemas built so far: zod keeps its global registry on globalThis.
    schemas: [...(globalThis.__zod_globalRegistry?._idmap?.keys() ?? [])],
  }));
});
`;

interface Loaded {
  readonly builtins: readonly string[];
  readonly files: readonly string[];
  readonly schemas: readonly string[];
}

function send(
  method: string,
  url: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end(body);
  });
}

const get = (url: string, headers: Record<string, string> = {}) => send('GET', url, headers);

/** Starts the built `memkube serve` with the recorder; `ask` runs against its URL; answers what it loaded. */
async function servedLoading(dir: string, ask: (url: string, token: string) => Promise<void>, writeKubeconfig = true): Promise<Loaded> {
  const loadedFile = join(dir, `loaded-${Math.random().toString(36).slice(2)}.json`);
  const kubeconfig = join(dir, 'kubeconfig');
  const child = spawn(
    process.execPath,
    [
      '--require',
      join(dir, 'recorder.cjs'),
      BUILT_CLI,
      'serve',
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      ...(writeKubeconfig ? ['--kubeconfig', kubeconfig] : []),
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, MEMKUBE_LOADED_FILE: loadedFile },
    },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /serving on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`memkube serve exited with ${code}`)));
    });
    const token = writeKubeconfig ? (/token: (\S+)/.exec(await readFile(kubeconfig, 'utf8'))?.[1] ?? '') : '';
    await ask(url, token);
  } finally {
    if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGTERM');
    await exited;
  }
  return JSON.parse(await readFile(loadedFile, 'utf8')) as Loaded;
}

describe.skipIf(!existsSync(BUNDLE) || !existsSync(BUILT_CLI))('what the built memkube serve loads', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-startup-'));
    await writeFile(join(dir, 'recorder.cjs'), RECORDER);
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('answers GET /version without loading TLS, HTTPS, zlib or OpenTelemetry', async () => {
    const loaded = await servedLoading(dir, async (url) => {
      const version = await get(`${url}/version`);
      expect(version.status).toBe(200);
      expect(JSON.parse(version.body.toString()).gitVersion).toMatch(/^v1\./);
    });
    expect(loaded.builtins).toContain('http');
    expect(loaded.builtins).not.toContain('tls');
    expect(loaded.builtins).not.toContain('https');
    expect(loaded.builtins).not.toContain('zlib');
    expect(loaded.files.filter((f) => f.includes('@opentelemetry'))).toEqual([]);
  }, 30_000);

  it('answers GET /version without loading fs/promises when it has no file to write', async () => {
    const loaded = await servedLoading(
      dir,
      async (url) => {
        expect((await get(`${url}/version`)).status).toBe(200);
      },
      false,
    );
    expect(loaded.builtins).toContain('http');
    expect(loaded.builtins).not.toContain('fs/promises');
  }, 30_000);

  it('loads zlib when a request asks for gzip, and answers it gzipped', async () => {
    let text = '';
    const loaded = await servedLoading(dir, async (url, token) => {
      const metrics = await get(`${url}/metrics`, { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' });
      expect(metrics.status).toBe(200);
      expect(metrics.headers['content-encoding']).toBe('gzip');
      text = gunzipSync(metrics.body).toString();
    });
    expect(text).toContain('# TYPE apiserver_request_total counter');
    expect(loaded.builtins).toContain('zlib');
  }, 30_000);

  it("builds a kind's schemas on its first use, not at the start", async () => {
    const atStart = await servedLoading(dir, async (url) => {
      expect((await get(`${url}/version`)).status).toBe(200);
    });
    // The namespaces a cluster starts with are created through the engine, which builds Namespace's.
    expect(atStart.schemas).toContain('io.k8s.api.core.v1.Namespace');
    expect(atStart.schemas).not.toContain('io.k8s.api.apps.v1.StatefulSet');
    expect(atStart.schemas).not.toContain('io.k8s.api.core.v1.PodSpec');
    // Nor the configuration kinds' schemas, which only a configuration file needs.
    expect(atStart.schemas).not.toContain('io.k8s.apiserver.pkg.apis.apiserver.v1.AuthorizationConfiguration');
    expect(atStart.schemas).not.toContain('io.k8s.apiserver.pkg.apis.audit.v1.Policy');
    expect(atStart.schemas.length).toBeLessThan(50);

    const statefulSet = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
      },
    };
    const afterCreate = await servedLoading(dir, async (url, token) => {
      const created = await send(
        'POST',
        `${url}/apis/apps/v1/namespaces/default/statefulsets`,
        { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        JSON.stringify(statefulSet),
      );
      expect(created.status).toBe(201);
    });
    expect(afterCreate.schemas).toContain('io.k8s.api.apps.v1.StatefulSet');
    expect(afterCreate.schemas).toContain('io.k8s.api.core.v1.PodSpec');
  }, 30_000);

  it('is ASCII, so V8 keeps it one byte a character', () => {
    const bytes = readFileSync(BUNDLE);
    expect(bytes.findIndex((b) => b > 0x7f)).toBe(-1);
  });

  it('is written wrapped as a module, so a start compiles its text as read', () => {
    const text = readFileSync(BUNDLE, 'latin1');
    expect(text.startsWith('(function (exports, require, module, __filename, __dirname) { ')).toBe(true);
    expect(text.endsWith('\n});')).toBe(true);
  });

  it('keeps the certificate and JWT packages in a file of their own, loaded on their first use', async () => {
    const packagesFile = join(dirname(BUNDLE), 'memkube-packages.cjs');
    // A message of pkijs's: its code is in the packages' file, not in the bundle.
    expect(readFileSync(packagesFile, 'latin1')).toContain("Object's schema was not verified");
    expect(readFileSync(BUNDLE, 'latin1')).not.toContain("Object's schema was not verified");
    const packages = createRequire(import.meta.url)(resolve(packagesFile)) as Record<string, Record<string, unknown>>;
    expect(Object.keys(packages).sort()).toEqual(['asn1js', 'jose', 'pkijs']);
    expect(typeof packages['jose']!['jwtVerify']).toBe('function');

    // The start writes its kubeconfig (YAML, which stays in the bundle) and loads none of them.
    const atStart = await servedLoading(dir, async (url) => {
      expect((await get(`${url}/version`)).status).toBe(200);
    });
    expect(atStart.files.filter((f) => f.endsWith('memkube-packages.cjs'))).toEqual([]);
    // A certificate request's DER is read with asn1js.
    const pem = '-----BEGIN CERTIFICATE REQUEST-----\nMAA=\n-----END CERTIFICATE REQUEST-----\n';
    const csr = {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: 'garbled' },
      spec: { signerName: 'example.com/x', usages: ['client auth'], request: Buffer.from(pem).toString('base64') },
    };
    let status = 0;
    const afterCsr = await servedLoading(dir, async (url, token) => {
      const answer = await send(
        'POST',
        `${url}/apis/certificates.k8s.io/v1/certificatesigningrequests`,
        { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        JSON.stringify(csr),
      );
      status = answer.status;
    });
    expect(status).toBe(422);
    expect(afterCsr.files.filter((f) => f.endsWith('memkube-packages.cjs'))).toHaveLength(1);
  }, 30_000);

  it("keeps zod's English messages only, not its other languages'", () => {
    const text = readFileSync(BUNDLE, 'latin1');
    expect(text).toContain('Invalid input: expected');
    // zod's Indonesian messages, which a full zod carries.
    expect(text).not.toContain('Input tidak valid');
  });

  it('leaves out the commands that run from the modules (the CRI runtime and the node agent)', () => {
    const text = readFileSync(BUNDLE, 'latin1');
    // The CRI service the node agent dials and the runtime serves; nothing the API server runs names it.
    expect(text).not.toContain('runtime.v1.RuntimeService');
    expect(text).toContain('import("./cri.js")');
    expect(text).toContain('import("./node-agent.js")');
  });
});
