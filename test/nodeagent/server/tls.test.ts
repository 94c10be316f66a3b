import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { cipherList, minTlsVersion } from '../../../src/nodeagent/server/tls-settings.js';
import { createNodeAgentServer } from '../../../src/nodeagent/server/index.js';
import { loadServingCertificate } from '../../../src/nodeagent/server/serving-certificate.js';
import { generateServingCertificate } from '../../../src/pki/self-signed.js';
import { FakeRuntime, podSource, secured, tempDir } from './fixtures.js';

function handshake(port: number, maxVersion: 'TLSv1.2' | 'TLSv1.3'): Promise<string> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/healthz', rejectUnauthorized: false, agent: false, maxVersion }, (res) => {
      res.resume();
      res.on('end', () => resolve(String(res.statusCode)));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    req.end();
  });
}

describe('the secured port TLS settings', () => {
  it("maps Go's version and suite names, refusing unknown ones with cliflag's text", () => {
    expect(minTlsVersion(undefined)).toBe('TLSv1.2');
    expect(minTlsVersion('VersionTLS13')).toBe('TLSv1.3');
    expect(() => minTlsVersion('VersionSSL30')).toThrow('unknown tls version "VersionSSL30"');
    expect(cipherList(['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'TLS_AES_128_GCM_SHA256'])).toBe('ECDHE-RSA-AES128-GCM-SHA256');
    expect(cipherList(['TLS_AES_128_GCM_SHA256'])).toBeUndefined();
    expect(() => cipherList(['TLS_RSA_WITH_RC4_128_SHA'])).toThrow("Cipher suite TLS_RSA_WITH_RC4_128_SHA not supported or doesn't exist");
  });

  it('serves the given certificate files with the minimum version', async () => {
    const tmp = tempDir();
    const made = await generateServingCertificate({ hosts: ['127.0.0.1'] });
    writeFileSync(join(tmp.dir, 'tls.crt'), made.serving.cert);
    writeFileSync(join(tmp.dir, 'tls.key'), made.serving.key);
    const server = createNodeAgentServer({
      address: '127.0.0.1',
      port: 0,
      rootDir: tmp.dir,
      nodeName: 'n',
      pods: podSource([]),
      runtime: new FakeRuntime().asRuntime(),
      tls: { certFile: join(tmp.dir, 'tls.crt'), keyFile: join(tmp.dir, 'tls.key'), minVersion: 'VersionTLS13' },
    });
    try {
      const { port, certificate } = await server.listen();
      expect([certificate.generated, certificate.cert]).toEqual([false, made.serving.cert]);
      expect(await handshake(port, 'TLSv1.3')).toBe('200');
      expect(await handshake(port, 'TLSv1.2')).not.toBe('200');
      expect((await secured(port, '/healthz')).body).toBe('ok');
    } finally {
      await server.close();
      tmp.remove();
    }
  });

  it('refuses a certificate file without its key', async () => {
    await expect(loadServingCertificate({ certFile: '/x.crt', certDir: '/tmp', hostname: 'h', now: 0 })).rejects.toThrow(
      'both the TLS certificate file and the TLS private key file must be given, or neither',
    );
  });
});
