import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseServeArgs, serve } from '../../src/cli/serve.js';

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
