/** `memkube serve`'s kubelet client flags. */
import { describe, expect, it } from 'vitest';
import { parseServeArgs } from '../../src/cli/serve.js';

describe('memkube serve: the kubelet client flags', () => {
  it('reads the files, address types and timeout', () => {
    expect(
      parseServeArgs([
        '--kubelet-client-certificate',
        'c.pem',
        '--kubelet-client-key=k.pem',
        '--kubelet-certificate-authority',
        'ca.pem',
        '--kubelet-preferred-address-types',
        'InternalIP,Hostname',
        '--kubelet-timeout',
        '2s',
      ]).kubelet,
    ).toEqual({
      clientCertificateFile: 'c.pem',
      clientKeyFile: 'k.pem',
      certificateAuthorityFile: 'ca.pem',
      preferredAddressTypes: ['InternalIP', 'Hostname'],
      timeoutMs: 2000,
    });
  });

  it('refuses an unknown address type, an empty list, and a certificate without its key', () => {
    expect(() => parseServeArgs(['--kubelet-preferred-address-types', 'InternalIP,LegacyHostIP'])).toThrow(
      '--kubelet-preferred-address-types contains invalid value(s): LegacyHostIP',
    );
    expect(() => parseServeArgs(['--kubelet-preferred-address-types', ''])).toThrow('--kubelet-preferred-address-types is required');
    expect(() => parseServeArgs(['--kubelet-client-certificate', 'c.pem'])).toThrow(
      '--kubelet-client-certificate and --kubelet-client-key must be given together',
    );
    expect(() => parseServeArgs(['--kubelet-timeout', 'soon'])).toThrow();
  });
});
