/**
 * Reading a webhook's kubeconfig: what it yields, paths relative to the file, and client-go's
 * messages for files that will not do.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeconfigError, loadWebhookKubeconfig } from '../../../src/auth/webhook/index.js';
import { subjectAccessReviewStatus, SubjectAccessReviewError } from '../../../src/auth/webhook/index.js';
import { testCertificates, tempDir } from './webhook-server.js';
import { readFileSync } from 'node:fs';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const read = (p: string) => readFileSync(p, 'utf8');
let caPem = '';
beforeAll(async () => {
  const c = await testCertificates();
  caPem = c.ca.cert;
  writeFileSync(join(dir, 'ca.crt'), c.ca.cert);
  writeFileSync(join(dir, 'client.crt'), c.client.cert);
  writeFileSync(join(dir, 'client.key'), c.client.key);
  writeFileSync(join(dir, 'serving.key'), c.serving.key);
});

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function failure(path: string): string {
  try {
    loadWebhookKubeconfig(path, read);
  } catch (e) {
    expect(e).toBeInstanceOf(KubeconfigError);
    return (e as Error).message;
  }
  throw new Error('the kubeconfig loaded');
}

const config = (cluster: string, user = '    {}', extra = '') => `clusters:
- name: authz
  cluster:
${cluster}
users:
- name: apiserver
  user:
${user}
contexts:
- name: c
  context: {cluster: authz, user: apiserver}
current-context: c
${extra}`;

describe('loadWebhookKubeconfig', () => {
  it('reads the current context: server, CA and client certificate, paths relative to the file', () => {
    const path = file(
      'ok.yaml',
      config(
        '    server: https://authz.example.com/authorize\n    certificate-authority: ca.crt',
        '    client-certificate: client.crt\n    client-key: client.key',
      ),
    );
    const k = loadWebhookKubeconfig(path, read);
    expect(k.endpoint.url).toBe('https://authz.example.com/authorize');
    expect(k.endpoint.ca).toEqual([caPem.trim()]);
    expect(k.endpoint.clientCertificate?.cert).toBe(read(join(dir, 'client.crt')));
    expect(k.token).toBeUndefined();
  });

  it('reads inline data, tls-server-name, insecure-skip-tls-verify and tokens', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const inline = loadWebhookKubeconfig(
      file(
        'inline.yaml',
        config(`    server: https://10.0.0.1\n    certificate-authority-data: ${b64(caPem)}\n    tls-server-name: authz.local`, '    token: abc'),
      ),
      read,
    );
    expect(inline.endpoint).toMatchObject({ url: 'https://10.0.0.1', serverName: 'authz.local', ca: [caPem.trim()] });
    expect(inline.token).toBe('abc');
    const insecure = loadWebhookKubeconfig(file('insecure.yaml', config('    server: https://10.0.0.1\n    insecure-skip-tls-verify: true')), read);
    expect(insecure.endpoint.insecureSkipTLSVerify).toBe(true);
  });

  it("says why a file will not do, in client-go's words", () => {
    expect(failure(join(dir, 'missing.yaml'))).toBe(`stat ${join(dir, 'missing.yaml')}: no such file or directory`);
    expect(failure(file('empty.yaml', ''))).toBe(
      'invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable',
    );
    expect(failure(file('nocontext.yaml', config('    server: https://x').replace('current-context: c', 'current-context: other')))).toBe(
      'invalid configuration: [context was not found for specified context: other, cluster has no server defined]',
    );
    expect(failure(file('noserver.yaml', config('    certificate-authority: ca.crt')))).toBe('invalid configuration: no server found for cluster "authz"');
    expect(failure(file('noca.yaml', config('    server: https://x\n    certificate-authority: nope.crt')))).toBe(
      `invalid configuration: unable to read certificate-authority ${join(dir, 'nope.crt')} for authz due to open ${join(dir, 'nope.crt')}: no such file or directory`,
    );
    expect(failure(file('nokey.yaml', config('    server: https://x', '    client-certificate: client.crt')))).toBe(
      'invalid configuration: client-key-data or client-key must be specified for apiserver to use the clientCert authentication method.',
    );
    expect(failure(file('twomethods.yaml', config('    server: https://x', '    token: t\n    username: u\n    password: p')))).toBe(
      'invalid configuration: more than one authentication method found for apiserver; found [token basicAuth], only one is allowed',
    );
    expect(failure(file('syntax.yaml', 'clusters: [\n'))).toMatch(
      new RegExp(`^error loading config file "${join(dir, 'syntax.yaml')}": error converting YAML to JSON: yaml: `),
    );
    expect(failure(file('types.yaml', 'clusters: {a: 1}\n'))).toBe(
      `error loading config file "${join(dir, 'types.yaml')}": json: cannot unmarshal object into Go struct field Config.clusters of type []v1.NamedCluster`,
    );
    expect(failure(file('badb64.yaml', config('    server: https://x\n    certificate-authority-data: "!!notbase64"')))).toBe(
      `error loading config file "${join(dir, 'badb64.yaml')}": illegal base64 data at input byte 0`,
    );
  });

  it('refuses TLS settings that cannot work', () => {
    expect(failure(file('both.yaml', config('    server: https://x\n    insecure-skip-tls-verify: true\n    certificate-authority: ca.crt')))).toBe(
      'specifying a root certificates file with the insecure flag is not allowed',
    );
    expect(failure(file('notpem.yaml', config(`    server: https://x\n    certificate-authority-data: ${Buffer.from('hello').toString('base64')}`)))).toBe(
      'unable to load root certificates: unable to parse bytes as PEM block',
    );
    expect(failure(file('mismatch.yaml', config('    server: https://x', '    client-certificate: client.crt\n    client-key: serving.key')))).toBe(
      'tls: private key does not match public key',
    );
    expect(failure(file('http.yaml', config('    server: http://x')))).toBe('memkube calls authorization webhooks over HTTPS only, not "http://x"');
  });
});

describe('subjectAccessReviewStatus against hostile answers', () => {
  it('answers a status or a SubjectAccessReviewError for any body, never anything else', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
        ),
        fc.integer({ min: 100, max: 599 }),
        (body, status) => {
          try {
            const s = subjectAccessReviewStatus({ status, contentType: 'application/json', body: Buffer.from(body, 'latin1') }, 'v1');
            expect(typeof s.allowed).toBe('boolean');
          } catch (e) {
            expect(e).toBeInstanceOf(SubjectAccessReviewError);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
