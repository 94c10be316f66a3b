import { describe, expect, it } from 'vitest';
import { parseServeArgs } from '../../src/cli/serve.js';

describe('memkube serve certificate flags', () => {
  it("parses kube-controller-manager's signing flags and --enable-bootstrap-token-auth", () => {
    const o = parseServeArgs([
      '--enable-bootstrap-token-auth',
      '--cluster-signing-cert-file',
      'ca.crt',
      '--cluster-signing-key-file=ca.key',
      '--cluster-signing-duration',
      '2h30m',
    ]);
    expect(o.enableBootstrapTokenAuth).toBe(true);
    expect(o.clusterSigning).toEqual({ certFile: 'ca.crt', keyFile: 'ca.key', durationMs: 2.5 * 3_600_000 });
    expect(parseServeArgs(['--enable-bootstrap-token-auth=false']).enableBootstrapTokenAuth).toBe(false);
  });

  it('maps the per-signer flags to their signers', () => {
    const o = parseServeArgs([
      '--cluster-signing-kubelet-client-cert-file',
      'kc.crt',
      '--cluster-signing-kubelet-client-key-file',
      'kc.key',
      '--cluster-signing-kubelet-serving-cert-file=ks.crt',
      '--cluster-signing-kube-apiserver-client-key-file=ac.key',
      '--cluster-signing-legacy-unknown-cert-file=lu.crt',
    ]);
    expect(o.clusterSigning?.signers).toEqual({
      'kube-apiserver-client-kubelet': { certFile: 'kc.crt', keyFile: 'kc.key' },
      'kubelet-serving': { certFile: 'ks.crt' },
      'kube-apiserver-client': { keyFile: 'ac.key' },
      'legacy-unknown': { certFile: 'lu.crt' },
    });
  });

  it('refuses bad values', () => {
    expect(() => parseServeArgs(['--enable-bootstrap-token-auth=maybe'])).toThrow(
      'invalid argument "maybe" for "--enable-bootstrap-token-auth" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
    );
    expect(() => parseServeArgs(['--cluster-signing-duration', 'forever'])).toThrow('invalid --cluster-signing-duration "forever"');
    expect(() => parseServeArgs(['--cluster-signing-cert-file'])).toThrow('--cluster-signing-cert-file needs a value');
    expect(() => parseServeArgs(['--cluster-signing-kubelet-client-cert-file'])).toThrow('--cluster-signing-kubelet-client-cert-file needs a value');
  });
});
