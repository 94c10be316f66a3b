/**
 * Restart from fixtures: `memkube serve --load` with a few hundred generated manifests (Namespaces,
 * ConfigMaps, Secrets, Services; multi-document YAML, single-object JSON and `kind: List` in both
 * JSON and YAML) starts with exactly those objects, plus what the server makes itself (its four
 * namespaces and a `default` ServiceAccount in every namespace), listed here explicitly.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../support/serve.js';
import { send } from './http-client.js';

const SYSTEM_NAMESPACES = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];
const NAMESPACES = Array.from({ length: 10 }, (_, i) => `fx-${i}`);
const CONFIGMAPS = 150;
const SECRETS = 60;
const SERVICES = 40;

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  type?: string;
  spec?: { selector: Record<string, string>; ports: { name: string; port: number; protocol: string; targetPort: number }[] };
}

/** Values a YAML or JSON round trip could mangle if the loader got it wrong. */
const TRICKY = [
  '0123',
  'true',
  'null',
  '',
  'multi\nline\ntext\n',
  '  leading and trailing  ',
  'ünïcødé ✓ 😀',
  '#not a comment',
  'key: value',
  '- item',
  '1e3',
  '"quoted"',
];

function namespaceOf(i: number): string {
  return i % 11 === 10 ? 'default' : NAMESPACES[i % NAMESPACES.length]!;
}

const namespaces: Manifest[] = NAMESPACES.map((name, i) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels: { fixture: 'yes', index: String(i) } },
}));
const configMaps: Manifest[] = Array.from({ length: CONFIGMAPS }, (_, i) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: `cm-${i}`, namespace: namespaceOf(i), labels: { app: `app-${i % 7}` } },
  data: { index: String(i), tricky: TRICKY[i % TRICKY.length]!, [`key-${i % 5}`]: 'x'.repeat(i) },
}));
const secrets: Manifest[] = Array.from({ length: SECRETS }, (_, i) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: `secret-${i}`, namespace: namespaceOf(i) },
  type: 'Opaque',
  // Half with data (base64), half with stringData, which the server folds into data.
  ...(i % 2 === 0 ? { data: { password: Buffer.from(`pw-${i}-${TRICKY[i % TRICKY.length]}`).toString('base64') } } : { stringData: { token: `token-${i}` } }),
}));
const services: Manifest[] = Array.from({ length: SERVICES }, (_, i) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: `svc-${i}`, namespace: namespaceOf(i) },
  spec: { selector: { app: `app-${i % 7}` }, ports: [{ name: 'http', port: 80 + i, protocol: 'TCP', targetPort: 8080 }] },
}));

let dir: string;
let server: ServeProcess;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'memkube-fixtures-'));
  const multiDoc = (items: readonly Manifest[]) => items.map((m) => `---\n${stringify(m)}`).join('');
  const files: [string, string][] = [
    ['namespaces.yaml', multiDoc(namespaces)],
    ['configmaps-a.yaml', multiDoc(configMaps.slice(0, 100))],
    // One object per JSON file for a few, a JSON List for the rest.
    ...configMaps.slice(100, 110).map((m): [string, string] => [`${m.metadata.name}.json`, JSON.stringify(m, null, 2)]),
    ['configmaps-list.json', JSON.stringify({ apiVersion: 'v1', kind: 'List', items: configMaps.slice(110) })],
    ['secrets-list.json', JSON.stringify({ apiVersion: 'v1', kind: 'SecretList', items: secrets })],
    ['services-list.yaml', stringify({ apiVersion: 'v1', kind: 'List', metadata: {}, items: services })],
  ];
  for (const [name, text] of files) await writeFile(join(dir, name), text);
  server = await startServe(join(dir, 'kubeconfig'), ['--load', ...files.map(([name]) => join(dir, name))]);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

interface Listed {
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  type?: string;
  spec?: { selector?: Record<string, string>; ports?: { name?: string; port: number; protocol?: string; targetPort?: number }[] };
}

async function list(resource: string): Promise<Map<string, Listed>> {
  const res = await send(server.url, `/api/v1/${resource}`);
  expect(res.status).toBe(200);
  const items = (JSON.parse(res.text) as { items: Listed[] }).items;
  return new Map(items.map((item) => [item.metadata.namespace ? `${item.metadata.namespace}/${item.metadata.name}` : item.metadata.name, item]));
}

const keyOf = (m: Manifest) => `${m.metadata.namespace}/${m.metadata.name}`;
const sorted = (keys: Iterable<string>) => [...keys].sort();

describe('serve --load', () => {
  it('starts with exactly the loaded objects and what the server makes itself', async () => {
    const loaded = namespaces.length + configMaps.length + secrets.length + services.length;
    expect(loaded).toBeGreaterThanOrEqual(250);

    const ns = await list('namespaces');
    expect(sorted(ns.keys())).toEqual(sorted([...SYSTEM_NAMESPACES, ...NAMESPACES]));
    // Kubernetes labels every namespace with its name.
    for (const m of namespaces)
      expect(ns.get(m.metadata.name)!.metadata.labels).toEqual({ ...m.metadata.labels, 'kubernetes.io/metadata.name': m.metadata.name });

    const cms = await list('configmaps');
    expect(sorted(cms.keys())).toEqual(sorted(configMaps.map(keyOf)));
    for (const m of configMaps) {
      const got = cms.get(keyOf(m))!;
      expect(got.data).toEqual(m.data);
      expect(got.metadata.labels).toEqual(m.metadata.labels);
    }

    const sec = await list('secrets');
    expect(sorted(sec.keys())).toEqual(sorted(secrets.map(keyOf)));
    for (const m of secrets) {
      const want = m.data ?? Object.fromEntries(Object.entries(m.stringData!).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
      expect(sec.get(keyOf(m))!.data).toEqual(want);
      expect(sec.get(keyOf(m))!.type).toBe('Opaque');
    }

    const svc = await list('services');
    expect(sorted(svc.keys())).toEqual(sorted(services.map(keyOf)));
    for (const m of services) {
      const got = svc.get(keyOf(m))!;
      expect(got.spec!.selector).toEqual(m.spec!.selector);
      expect(got.spec!.ports!.map((p) => ({ name: p.name, port: p.port, protocol: p.protocol, targetPort: p.targetPort }))).toEqual(m.spec!.ports);
    }

    // The server's own: a `default` ServiceAccount in every namespace, and nothing else of it.
    const sa = await list('serviceaccounts');
    expect(sorted(sa.keys())).toEqual(sorted([...SYSTEM_NAMESPACES, ...NAMESPACES].map((n) => `${n}/default`)));
  }, 60_000);
});
