import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseServeArgs, serve } from '../../src/cli/serve.js';

const quiet = { stdout: { write: () => undefined }, stderr: { write: () => undefined }, every: () => () => undefined };

describe('memkube serve: the authentication and authorization flags', () => {
  it("takes kube-apiserver's names", () => {
    expect(
      parseServeArgs(['--tls', '--anonymous-auth=false', '--client-ca-file', 'ca.pem', '--token-auth-file=tokens.csv', '--authorization-mode', 'Node,RBAC']),
    ).toMatchObject({
      tls: true,
      anonymousAuth: false,
      clientCaFile: 'ca.pem',
      tokenAuthFile: 'tokens.csv',
      authorization: { authorizationMode: 'Node,RBAC' },
    });
    expect(parseServeArgs(['--anonymous-auth']).anonymousAuth).toBe(true);
    expect(parseServeArgs(['--anonymous-auth=F']).anonymousAuth).toBe(false);
  });

  it('refuses what kube-apiserver refuses', () => {
    expect(() => parseServeArgs(['--anonymous-auth=maybe'])).toThrow(
      'invalid argument "maybe" for "--anonymous-auth" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
    );
    expect(() => parseServeArgs(['--authorization-mode', 'RBAC,Magic'])).toThrow('authorization-mode "Magic" is not a valid mode');
    expect(() => parseServeArgs(['--authorization-mode', 'RBAC,RBAC'])).toThrow('authorization-mode ["RBAC" "RBAC"] has mode specified more than once');
    expect(() => parseServeArgs(['--authorization-mode', 'Webhook'])).toThrow("authorization-mode Webhook's authorization config file not passed");
    expect(() => parseServeArgs(['--authorization-config', 'a.yaml', '--authorization-mode', 'RBAC'])).toThrow(
      '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined',
    );
    expect(() => parseServeArgs(['--client-ca-file', 'ca.pem'])).toThrow('--client-ca-file needs --tls');
  });

  it('refuses unreadable service account key files with kube-apiserver’s texts, before serving', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'memkube-serve-sa-'));
    try {
      const missing = join(dir, 'missing.key');
      const bad = join(dir, 'bad.key');
      writeFileSync(bad, 'not a key\n');
      const good = join(import.meta.dirname, '..', 'auth', 'serviceaccount', 'fixtures', 'rsa-pkcs1.pem');
      const start = (args: string[]) => serve(parseServeArgs(['--port', '0', ...args]), () => undefined, quiet);
      await expect(start(['--service-account-signing-key-file', missing, '--service-account-key-file', good])).rejects.toThrow(
        `failed to parse service-account-issuer-key-file: open ${missing}: no such file or directory`,
      );
      await expect(start(['--service-account-signing-key-file', bad, '--service-account-key-file', good])).rejects.toThrow(
        `failed to parse service-account-issuer-key-file: error reading private key file ${bad}: data does not contain a valid RSA or ECDSA private key`,
      );
      await expect(start(['--service-account-signing-key-file', good])).rejects.toThrow(
        'either `--service-account-key-file` or `--service-account-signing-endpoint` must be set',
      );
      await expect(start(['--service-account-key-file', missing])).rejects.toThrow(`open ${missing}: no such file or directory`);
      await expect(start(['--service-account-key-file', bad])).rejects.toThrow(
        `error reading public key file ${bad}: data does not contain any valid RSA or ECDSA public keys`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serve --tls puts its CA into token Secrets (ca.crt), as kube-controller-manager puts the CA of its kubeconfig', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'memkube-serve-ca-'));
    const kubeconfig = join(dir, 'kubeconfig');
    let started!: (url: string) => void;
    const running = new Promise<string>((resolve) => (started = resolve));
    const done = serve(parseServeArgs(['--port', '0', '--tls', '--kubeconfig', kubeconfig]), (line) => started(line), quiet);
    try {
      await Promise.race([running, done]);
      const kc = parse(readFileSync(kubeconfig, 'utf8')) as {
        clusters: [{ cluster: { server: string; 'certificate-authority-data': string } }];
        users: [{ user: { 'client-certificate-data': string; 'client-key-data': string } }];
      };
      const { server, 'certificate-authority-data': caData } = kc.clusters[0].cluster;
      const tls = {
        ca: Buffer.from(caData, 'base64'),
        cert: Buffer.from(kc.users[0].user['client-certificate-data'], 'base64'),
        key: Buffer.from(kc.users[0].user['client-key-data'], 'base64'),
      };
      /** One request; with `until`, a watch read until an event passes it. */
      const call = (method: string, path: string, body?: unknown, until?: (line: string) => boolean) =>
        new Promise<string>((resolve, reject) => {
          const req = request(new URL(path, server), { method, ...tls, headers: { 'content-type': 'application/json' } }, (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              text += chunk;
              const line = until && text.split('\n').find(until);
              if (line) {
                resolve(line);
                res.destroy();
              }
            });
            res.on('end', () => resolve(text));
          });
          req.on('error', reject);
          req.end(body === undefined ? undefined : JSON.stringify(body));
        });
      await call('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'builder' } });
      await call('POST', '/api/v1/namespaces/default/secrets', {
        metadata: { name: 'builder-token', annotations: { 'kubernetes.io/service-account.name': 'builder' } },
        type: 'kubernetes.io/service-account-token',
      });
      const event = await call('GET', '/api/v1/namespaces/default/secrets?watch=1&fieldSelector=metadata.name%3Dbuilder-token', undefined, (line) =>
        line.includes('"ca.crt"'),
      );
      const secret = (JSON.parse(event) as { object: { data: Record<string, string> } }).object;
      expect(Buffer.from(secret.data['ca.crt']!, 'base64').toString()).toBe(Buffer.from(caData, 'base64').toString());
      expect(Buffer.from(secret.data.namespace!, 'base64').toString()).toBe('default');
    } finally {
      process.emit('SIGTERM');
      await done;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('memkube serve: the files of the authentication flags', () => {
  it("stops with Go's words when a file cannot be read, before serving", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'memkube-serve-auth-'));
    try {
      const out: string[] = [];
      const missing = join(dir, 'tokens.csv');
      await expect(serve(parseServeArgs(['--token-auth-file', missing]), (l) => out.push(l))).rejects.toThrow(`open ${missing}: no such file or directory`);
      await expect(serve(parseServeArgs(['--authentication-config', dir]), (l) => out.push(l))).rejects.toThrow(`read ${dir}: is a directory`);
      expect(out).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
