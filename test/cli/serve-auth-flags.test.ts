import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
});
