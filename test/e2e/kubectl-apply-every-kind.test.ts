/**
 * `kubectl apply -f` (kubectl 1.33) of one multi-document manifest holding one object of every
 * kind a v1.36 server stores, against `memkube serve`: every object is created, read back at its
 * own group and version, and a second apply changes nothing.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { generateServingCertificate } from '../../src/pki/self-signed.js';
import { kubectlRunner } from '../support/kubectl.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
const MANIFEST = join(import.meta.dirname, 'fixtures', 'every-kind.yaml');

/**
 * Kinds the manifest leaves out, each for its reason: the reviews and Binding are only created
 * (nothing is stored), ComponentStatus is read-only, and a CertificateSigningRequest or
 * PodCertificateRequest needs a key pair made for it (their own suites create them).
 */
const NOT_IN_MANIFEST = new Set([
  'Binding',
  'ComponentStatus',
  'TokenReview',
  'SelfSubjectReview',
  'SubjectAccessReview',
  'SelfSubjectAccessReview',
  'LocalSubjectAccessReview',
  'SelfSubjectRulesReview',
  'CertificateSigningRequest',
  'PodCertificateRequest',
]);

interface Doc {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
}

describe.skipIf(!existsSync(KUBECTL))('kubectl apply of one object of every kind', () => {
  let dir: string;
  let server: ServeProcess | undefined;
  let docs: Doc[];
  const { kubectl } = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => dir,
  );

  const okIgnoringDeprecation = async (...args: string[]) => {
    const r = await kubectl(...args);
    expect(
      r.stderr.replace(/^WARNING: version difference.*\n/m, '').replace(/^Warning: v1 (Endpoints|ComponentStatus) is deprecated.*\n/gm, ''),
      args.join(' '),
    ).toBe('');
    expect(r.code).toBe(0);
    return r.stdout;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-every-'));
    server = await startServe(join(dir, 'kubeconfig'));
    // A ClusterTrustBundle holds real certificates.
    const { ca } = await generateServingCertificate({ hosts: ['127.0.0.1'] });
    const text = (await readFile(MANIFEST, 'utf8')).replace('    CERTIFICATE_PLACEHOLDER\n', ca.cert.replace(/^/gm, '    ').replace(/ +$/, ''));
    await writeFile(join(dir, 'every-kind.yaml'), text);
    docs = parseAllDocuments(text).map((d) => d.toJSON() as Doc);
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('the manifest holds every stored kind the server lists', async () => {
    const served = (await okIgnoringDeprecation('api-resources', '-o', 'name')).trim().split('\n');
    const kinds = new Set(docs.map((d) => d.kind));
    const wide = (await okIgnoringDeprecation('api-resources', '--no-headers')).trim().split('\n');
    const servedKinds = new Set(wide.map((line) => line.trim().split(/\s+/).at(-1)!));
    expect([...servedKinds].filter((k) => !kinds.has(k) && !NOT_IN_MANIFEST.has(k)).sort()).toEqual([]);
    expect(served.length).toBeGreaterThan(70);
  });

  it('applies every document, reads each back, and a second apply changes nothing', async () => {
    // The only thing kubectl may print besides the objects is the Endpoints deprecation warning.
    const apply = async () => {
      const r = await kubectl('apply', '-f', 'every-kind.yaml');
      expect(
        r.stderr
          .replace(/^WARNING: version difference.*\n/m, '')
          .replace(/^Warning: v1 Endpoints is deprecated in v1\.33\+; use discovery\.k8s\.io\/v1 EndpointSlice\n/gm, ''),
      ).toBe('');
      expect(r.code).toBe(0);
      return r.stdout;
    };
    const lines = (await apply()).trim().split('\n');
    expect(lines).toHaveLength(docs.length);
    for (const line of lines) expect(line).toMatch(/ created$/);
    // Each object reads back at its own group and version; its resourceVersion is kept to compare.
    const read = async (d: Doc) => {
      // `Kind.version.group` names one group and version; a core kind is named by its kind alone.
      const [group, version] = d.apiVersion.includes('/') ? d.apiVersion.split('/') : ['', d.apiVersion];
      const resource = group ? `${d.kind}.${version}.${group}` : d.kind;
      const namespace = d.metadata.namespace ? ['-n', d.metadata.namespace] : [];
      return JSON.parse(await okIgnoringDeprecation('get', resource, d.metadata.name, ...namespace, '-o', 'json')) as Doc & {
        metadata: { resourceVersion: string };
      };
    };
    const versions = new Map<string, string>();
    for (const d of docs) {
      const got = await read(d);
      expect([got.apiVersion, got.kind, got.metadata.name]).toEqual([d.apiVersion, d.kind, d.metadata.name]);
      versions.set(`${d.apiVersion} ${d.kind} ${d.metadata.name}`, got.metadata.resourceVersion);
    }
    // A second apply sends a patch wherever the live object differs from the manifest (server
    // defaults inside atomic lists, a Secret's write-only stringData), as against any cluster, but
    // no object changes: the server-side result is the same object.
    const again = (await apply()).trim().split('\n');
    expect(again).toHaveLength(docs.length);
    for (const line of again) expect(line).toMatch(/ (unchanged|configured)$/);
    for (const d of docs)
      expect((await read(d)).metadata.resourceVersion, `${d.kind} ${d.metadata.name}`).toBe(versions.get(`${d.apiVersion} ${d.kind} ${d.metadata.name}`));
  }, 120_000);
});
