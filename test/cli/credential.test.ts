import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credential, CredentialError, parseCredentialArgs } from '../../src/cli/credential.js';
import { decodeExecInfo, ExecInfoError, MAX_EXEC_INFO_BYTES } from '../../src/config/exec-credential/index.js';
import { generateServingCertificate, type ServingCertificate } from '../../src/pki/self-signed.js';

const NOW = Date.parse('2026-11-25T06:24:14.250Z');
const dir = mkdtempSync(join(tmpdir(), 'memkube-credential-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
let pki: ServingCertificate;
let otherPki: ServingCertificate;
beforeAll(async () => {
  [pki, otherPki] = await Promise.all([
    generateServingCertificate({ hosts: ['127.0.0.1'], now: NOW }),
    generateServingCertificate({ hosts: ['127.0.0.1'], now: NOW }),
  ]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const V1_INFO = JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', spec: { interactive: false } });
const run = (args: string[], info?: string) =>
  credential(parseCredentialArgs(args), { env: info === undefined ? {} : { KUBERNETES_EXEC_INFO: info }, now: () => NOW });

describe('memkube credential arguments', () => {
  it('reads each mode', () => {
    expect(parseCredentialArgs(['--token', 'abc'])).toEqual({ mode: 'token', token: 'abc' });
    expect(parseCredentialArgs(['--token-file=/t'])).toEqual({ mode: 'token-file', tokenFile: '/t' });
    expect(parseCredentialArgs(['--client-certificate', 'c', '--client-key', 'k'])).toEqual({ mode: 'client-certificate', certFile: 'c', keyFile: 'k' });
    expect(parseCredentialArgs(['--ca-cert', 'c', '--ca-key', 'k', '--user', 'jane', '--group', 'dev', '--group=ops', '--duration', '10m'])).toEqual({
      mode: 'sign',
      caCertFile: 'c',
      caKeyFile: 'k',
      user: 'jane',
      groups: ['dev', 'ops'],
      durationMs: 600_000,
    });
    expect(parseCredentialArgs(['--ca-cert', 'c', '--ca-key', 'k', '--user', 'jane'])).toMatchObject({ groups: [], durationMs: 3_600_000 });
    expect(
      parseCredentialArgs(['--kubeconfig', 'kc', '--service-account', 'kube-system/builder', '--audience', 'a', '--audience', 'b', '--duration', '2h']),
    ).toEqual({
      mode: 'service-account',
      kubeconfig: 'kc',
      namespace: 'kube-system',
      name: 'builder',
      audiences: ['a', 'b'],
      durationMs: 7_200_000,
    });
  });

  it('says what is wrong with a command line', () => {
    const fails = (args: string[], message: string) => expect(() => parseCredentialArgs(args)).toThrow(new CredentialError(message));
    expect(() => parseCredentialArgs([])).toThrow(/^no credential chosen\nusage: memkube credential --token TOKEN/);
    expect(() => parseCredentialArgs(['--bogus'])).toThrow(/^unknown argument "--bogus"\nusage:/);
    expect(() => parseCredentialArgs(['--token', 'a', '--token-file', 'f'])).toThrow(/^choose one credential, not --token and --token-file\n/);
    fails(['--token'], '--token needs a value');
    fails(['--token', 'a', '--token', 'b'], '--token given twice');
    fails(['--token', ''], '--token: the token is empty');
    fails(['--token', 'a b'], '--token: a token has no whitespace or control characters');
    fails(['--client-certificate', 'c'], '--client-certificate needs --client-key');
    fails(['--user', 'jane'], '--ca-cert needs --ca-cert and --ca-key');
    fails(['--ca-cert', 'c', '--ca-key', 'k', '--user', ''], '--user must not be empty');
    fails(['--token', 'a', '--group', 'g'], '--group goes only with --ca-cert/--ca-key/--user');
    fails(['--token', 'a', '--audience', 'g'], '--audience goes only with --service-account');
    fails(['--token', 'a', '--duration', '1h'], '--duration goes only with --ca-cert or --service-account');
    fails(['--ca-cert', 'c', '--ca-key', 'k', '--user', 'u', '--duration', 'soon'], 'invalid --duration "soon": a duration such as 300ms, 10s or 1m30s');
    fails(['--ca-cert', 'c', '--ca-key', 'k', '--user', 'u', '--duration', '10ms'], 'invalid --duration "10ms": at least 1s');
    fails(['--kubeconfig', 'k', '--service-account', 'builder'], 'invalid --service-account "builder": NAMESPACE/NAME, such as default/builder');
    fails(['--service-account', 'a/b'], '--service-account needs --kubeconfig');
  });
});

describe('KUBERNETES_EXEC_INFO', () => {
  it('is v1 without cluster information when unset or empty', () => {
    expect(decodeExecInfo(undefined)).toEqual({ apiVersion: 'client.authentication.k8s.io/v1', interactive: false });
    expect(decodeExecInfo('')).toEqual({ apiVersion: 'client.authentication.k8s.io/v1', interactive: false });
  });

  it('reads what kubectl sends in v1 and v1beta1, cluster included', () => {
    const cluster = { server: 'https://127.0.0.1:6443', 'certificate-authority-data': Buffer.from('PEM').toString('base64'), config: { any: ['thing'] } };
    expect(
      decodeExecInfo(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', spec: { cluster, interactive: true } })),
    ).toEqual({
      apiVersion: 'client.authentication.k8s.io/v1',
      interactive: true,
      cluster,
    });
    expect(decodeExecInfo('{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{}}')).toEqual({
      apiVersion: 'client.authentication.k8s.io/v1beta1',
      interactive: false,
    });
  });

  it('refuses anything else with a clear message', () => {
    const messageOf = (text: string) => {
      try {
        decodeExecInfo(text);
        return 'accepted';
      } catch (e) {
        return e instanceof ExecInfoError ? e.message : `not an ExecInfoError: ${String(e)}`;
      }
    };
    const refuses = (text: string, message: string) => expect(messageOf(text)).toBe(`KUBERNETES_EXEC_INFO: ${message}`);
    const refusesWith = (text: string, start: string) => expect(messageOf(text).startsWith(`KUBERNETES_EXEC_INFO: ${start}`), messageOf(text)).toBe(true);
    refusesWith('{', 'decode: error converting YAML to JSON: yaml: ');
    refusesWith('"a string"', "decode: couldn't get version/kind; json parse error: json: cannot unmarshal string");
    refuses('{"kind":"ExecCredential"}', 'decode: Object \'apiVersion\' is missing in \'{"kind":"ExecCredential"}\'');
    refuses(
      '{"apiVersion":"client.authentication.k8s.io/v1alpha1","kind":"ExecCredential","spec":{}}',
      'decode: no kind "ExecCredential" is registered for version "client.authentication.k8s.io/v1alpha1"',
    );
    refuses('{"apiVersion":"v1","kind":"Pod"}', 'decode: no kind "Pod" is registered for version "v1"');
    refuses(
      '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":false,"extra":1}}',
      'decode: strict decoding error: unknown field "spec.extra"',
    );
    refuses(
      '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":false,"interactive":true}}',
      'decode: strict decoding error: json: duplicate field "spec.interactive"',
    );
    refusesWith('{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":"yes"}}', 'decode: ');
    refuses('{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{}}', 'spec.interactive: Required value');
    refuses(
      '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":false},"status":{"token":"x"}}',
      'status: Forbidden: a client sends only the spec',
    );
    refuses('{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{"cluster":{}}}', 'spec.cluster.server: Required value');
    refuses(
      '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{"cluster":{"server":"https://x","certificate-authority-data":"!!"}}}',
      'spec.cluster.certificate-authority-data: illegal base64 data',
    );
    refuses(
      `{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"x":"${'a'.repeat(MAX_EXEC_INFO_BYTES)}"}}`,
      `larger than ${MAX_EXEC_INFO_BYTES} bytes`,
    );
    expect(() => decodeExecInfo(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toThrow(ExecInfoError);
  });

  it('never crashes on arbitrary text: a decoded answer or an ExecInfoError', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        try {
          const info = decodeExecInfo(text);
          expect(['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1']).toContain(info.apiVersion);
        } catch (e) {
          expect(e).toBeInstanceOf(ExecInfoError);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('memkube credential', () => {
  it('prints a token in v1 when KUBERNETES_EXEC_INFO is unset, and in the version it asks for', async () => {
    expect(JSON.parse(await run(['--token', 'abc']))).toEqual({
      apiVersion: 'client.authentication.k8s.io/v1',
      kind: 'ExecCredential',
      spec: { interactive: false },
      status: { token: 'abc' },
    });
    expect(JSON.parse(await run(['--token', 'abc'], V1_INFO)).apiVersion).toBe('client.authentication.k8s.io/v1');
    const beta = '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{"interactive":false}}';
    expect(JSON.parse(await run(['--token', 'abc'], beta)).apiVersion).toBe('client.authentication.k8s.io/v1beta1');
  });

  it('fails on a malformed KUBERNETES_EXEC_INFO before reading anything', async () => {
    await expect(run(['--token-file', join(dir, 'absent')], '{"apiVersion":"x"}')).rejects.toThrow(
      'KUBERNETES_EXEC_INFO: decode: Object \'Kind\' is missing in \'{"apiVersion":"x"}\'',
    );
  });

  it('reads a token file, trimmed', async () => {
    expect(JSON.parse(await run(['--token-file', file('token', '  tok-123\n')])).status).toEqual({ token: 'tok-123' });
    await expect(run(['--token-file', file('empty-token', '\n')])).rejects.toThrow(`--token-file ${join(dir, 'empty-token')}: the token is empty`);
    await expect(run(['--token-file', join(dir, 'absent')])).rejects.toThrow(`--token-file ${join(dir, 'absent')}: no such file or directory`);
    await expect(run(['--token-file', dir])).rejects.toThrow(`--token-file ${dir}: is a directory`);
    await expect(run(['--token-file', file('big-token', 'a'.repeat(1024 * 1024 + 1))])).rejects.toThrow('larger than 1048576 bytes');
  });

  it('passes a client certificate and its key, expiring with the certificate', async () => {
    const cert = file('client.crt', pki.serving.cert);
    const key = file('client.key', pki.serving.key);
    const status = JSON.parse(await run(['--client-certificate', cert, '--client-key', key])).status;
    expect(status).toEqual({
      clientCertificateData: pki.serving.cert,
      clientKeyData: pki.serving.key,
      expirationTimestamp: new Date(Date.parse(new X509Certificate(pki.serving.cert).validTo)).toISOString().replace('.000Z', 'Z'),
    });
    await expect(run(['--client-certificate', cert, '--client-key', file('other.key', otherPki.serving.key)])).rejects.toThrow(
      '--client-key does not match --client-certificate (tls: private key does not match public key)',
    );
    await expect(run(['--client-certificate', file('junk.crt', 'junk'), '--client-key', key])).rejects.toThrow('--client-certificate: not a PEM certificate');
    await expect(run(['--client-certificate', cert, '--client-key', file('junk.key', 'junk')])).rejects.toThrow('--client-key: not a PEM private key');
  });

  it('signs a fresh client certificate for a user and groups with the CA', async () => {
    const args = [
      '--ca-cert',
      file('ca.crt', pki.ca.cert),
      '--ca-key',
      file('ca.key', pki.ca.key),
      '--user',
      'jane',
      '--group',
      'dev',
      '--group',
      'system:masters',
    ];
    const cred = JSON.parse(await run([...args, '--duration', '30m'], V1_INFO));
    expect(cred.status.expirationTimestamp).toBe('2026-11-25T06:54:14Z');
    const cert = new X509Certificate(cred.status.clientCertificateData);
    const ca = new X509Certificate(pki.ca.cert);
    expect(cert.subject).toBe('O=dev + O=system:masters\nCN=jane');
    expect(cert.issuer).toBe(ca.subject);
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.checkIssued(ca)).toBe(true);
    expect(cert.ca).toBe(false);
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(Date.parse(cert.validFrom)).toBe(Math.floor(NOW / 1000) * 1000 - 5 * 60_000);
    expect(Date.parse(cert.validTo)).toBe(Date.parse('2026-11-25T06:54:14Z'));
    const key = cred.status.clientKeyData as string;
    expect(key).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    const { createPrivateKey } = await import('node:crypto');
    expect(cert.checkPrivateKey(createPrivateKey(key))).toBe(true);
  });

  it('refuses a CA that cannot sign', async () => {
    const base = ['--user', 'jane'];
    await expect(run(['--ca-cert', file('leaf.crt', pki.serving.cert), '--ca-key', file('leaf.key', pki.serving.key), ...base])).rejects.toThrow(
      '--ca-cert/--ca-key: the CA certificate is not a certificate authority (basicConstraints CA:FALSE)',
    );
    await expect(run(['--ca-cert', file('ca2.crt', pki.ca.cert), '--ca-key', file('other-ca.key', otherPki.ca.key), ...base])).rejects.toThrow(
      '--ca-cert/--ca-key: the CA key does not match the CA certificate',
    );
    await expect(run(['--ca-cert', file('junk-ca.crt', 'junk'), '--ca-key', file('ca3.key', pki.ca.key), ...base])).rejects.toThrow(
      '--ca-cert/--ca-key: the CA certificate is not a PEM certificate',
    );
    await expect(run(['--ca-cert', file('ca4.crt', pki.ca.cert), '--ca-key', file('junk-ca.key', 'junk'), ...base])).rejects.toThrow(
      '--ca-cert/--ca-key: the CA key is not a PEM private key',
    );
  });
});

describe('memkube credential --service-account', () => {
  let server: Server;
  let url: string;
  const seen: { method?: string; url?: string; headers?: IncomingHttpHeaders; body?: string }[] = [];
  beforeAll(async () => {
    server = createServer({ cert: pki.serving.cert, key: pki.serving.key }, (req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body });
        res.setHeader('Content-Type', 'application/json');
        if (req.url?.includes('/serviceaccounts/missing/')) {
          res.writeHead(404).end(
            JSON.stringify({
              kind: 'Status',
              apiVersion: 'v1',
              status: 'Failure',
              message: 'serviceaccounts "missing" not found',
              reason: 'NotFound',
              code: 404,
            }),
          );
          return;
        }
        if (req.url?.includes('/serviceaccounts/garbled/')) {
          res.writeHead(201).end('{"status":{}}');
          return;
        }
        const request = JSON.parse(body);
        res.writeHead(201).end(JSON.stringify({ ...request, status: { token: 'issued-token', expirationTimestamp: '2026-11-25T07:24:14Z' } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const kubeconfig = (name: string, extraUser = 'token: admin-token') =>
    file(
      name,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${url}\n    certificate-authority: ca-for-kubeconfig.crt\ncontexts:\n- name: ctx\n  context: {cluster: c, user: admin}\ncurrent-context: ctx\nusers:\n- name: admin\n  user:\n    ${extraUser}\n`,
    );

  it('asks the serviceaccounts/<name>/token subresource with the kubeconfig user, trusting its CA', async () => {
    file('ca-for-kubeconfig.crt', pki.ca.cert);
    const args = [
      '--kubeconfig',
      kubeconfig('admin.kubeconfig'),
      '--service-account',
      'team-a/builder',
      '--audience',
      'https://kubernetes.default.svc',
      '--duration',
      '20m',
    ];
    const beta = '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{}}';
    expect(JSON.parse(await run(args, beta))).toEqual({
      apiVersion: 'client.authentication.k8s.io/v1beta1',
      kind: 'ExecCredential',
      spec: { interactive: false },
      status: { token: 'issued-token', expirationTimestamp: '2026-11-25T07:24:14Z' },
    });
    const call = seen.at(-1)!;
    expect(call.method).toBe('POST');
    expect(call.url).toBe('/api/v1/namespaces/team-a/serviceaccounts/builder/token');
    expect(call.headers?.authorization).toBe('Bearer admin-token');
    expect(call.headers?.['content-type']).toBe('application/json');
    expect(JSON.parse(call.body!)).toEqual({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: { name: 'builder', namespace: 'team-a' },
      spec: { audiences: ['https://kubernetes.default.svc'], expirationSeconds: 1200 },
    });
    // Without audiences or duration the server's defaults apply.
    await run([
      '--kubeconfig',
      kubeconfig('admin2.kubeconfig', `tokenFile: ${file('admin-token-file', 'from-file\n')}`),
      '--service-account',
      'default/builder',
    ]);
    expect(JSON.parse(seen.at(-1)!.body!).spec).toEqual({ audiences: null });
    expect(seen.at(-1)!.headers?.authorization).toBe('Bearer from-file');
  });

  it("answers the server's refusal, a garbled answer, an untrusted server and a broken kubeconfig with clear errors", async () => {
    const kc = kubeconfig('admin3.kubeconfig');
    await expect(run(['--kubeconfig', kc, '--service-account', 'default/missing'])).rejects.toThrow(
      'requesting a token for service account default/missing: serviceaccounts "missing" not found',
    );
    await expect(run(['--kubeconfig', kc, '--service-account', 'default/garbled'])).rejects.toThrow(
      'requesting a token for service account default/garbled: the answer has no status.token and status.expirationTimestamp',
    );
    const untrusted = file(
      'untrusted.kubeconfig',
      `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "${url}"}\ncontexts:\n- name: x\n  context: {cluster: c}\ncurrent-context: x\n`,
    );
    await expect(run(['--kubeconfig', untrusted, '--service-account', 'default/builder'])).rejects.toThrow(
      `Post "${url}/api/v1/namespaces/default/serviceaccounts/builder/token": `,
    );
    await expect(run(['--kubeconfig', file('nocontext.kubeconfig', 'apiVersion: v1\nkind: Config\n'), '--service-account', 'default/b'])).rejects.toThrow(
      `--kubeconfig ${join(dir, 'nocontext.kubeconfig')}: no current-context`,
    );
    await expect(run(['--kubeconfig', join(dir, 'absent.kubeconfig'), '--service-account', 'default/b'])).rejects.toThrow(
      `--kubeconfig ${join(dir, 'absent.kubeconfig')}: no such file or directory`,
    );
  });
});

describe('the memkube credential command', () => {
  const memkube = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'src/cli/main.ts', 'credential', ...args],
        { env: { ...process.env, ...env }, timeout: 20_000 },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  it('prints the credential and exits 0, or says why on stderr and exits non-zero', async () => {
    const [good, bad, usage] = await Promise.all([
      memkube(['--token', 'abc'], { KUBERNETES_EXEC_INFO: V1_INFO }),
      memkube(['--token', 'abc'], { KUBERNETES_EXEC_INFO: '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{}}' }),
      memkube(['--help']),
    ]);
    expect(good).toEqual({
      code: 0,
      stdout: '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":false},"status":{"token":"abc"}}\n',
      stderr: '',
    });
    expect(bad).toEqual({ code: 1, stdout: '', stderr: 'memkube: KUBERNETES_EXEC_INFO: spec.interactive: Required value\n' });
    expect(usage.code).toBe(0);
    expect(usage.stdout).toMatch(/^usage: memkube credential --token TOKEN \| --token-file FILE\n/);
  });
});
