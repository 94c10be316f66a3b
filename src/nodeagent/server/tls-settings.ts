/**
 * kubelet's `--tls-min-version` and `--tls-cipher-suites` (component-base `cliflag.TLSVersion`
 * and `cliflag.TLSCipherSuites`) as Node's TLS options: Go's version and suite names mapped to
 * OpenSSL's. TLS 1.3 suites are accepted and left to the TLS library, as Go does not let them be
 * configured either.
 */
import type { SecureVersion } from 'node:tls';

/**
 * Go's TLS version names.
 * @category Node agent
 */
export type GoTlsVersion = 'VersionTLS10' | 'VersionTLS11' | 'VersionTLS12' | 'VersionTLS13';

const VERSIONS: Readonly<Record<string, SecureVersion>> = {
  VersionTLS10: 'TLSv1',
  VersionTLS11: 'TLSv1.1',
  VersionTLS12: 'TLSv1.2',
  VersionTLS13: 'TLSv1.3',
};

const TLS12_SUITES: Readonly<Record<string, string>> = {
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
  TLS_RSA_WITH_AES_128_GCM_SHA256: 'AES128-GCM-SHA256',
  TLS_RSA_WITH_AES_256_GCM_SHA384: 'AES256-GCM-SHA384',
  TLS_RSA_WITH_AES_128_CBC_SHA: 'AES128-SHA',
  TLS_RSA_WITH_AES_256_CBC_SHA: 'AES256-SHA',
};
const TLS13_SUITES = new Set(['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256']);

/** Node's minimum version for Go's name (TLS 1.2 when none is given); throws with cliflag's text for an unknown one. */
export function minTlsVersion(name: string | undefined): SecureVersion {
  if (!name) return 'TLSv1.2';
  const version = VERSIONS[name];
  if (!version) throw new Error(`unknown tls version "${name}"`);
  return version;
}

/** OpenSSL's cipher list for Go's suite names (undefined: the library's defaults); throws with cliflag's text for an unknown one. */
export function cipherList(names: readonly string[] | undefined): string | undefined {
  if (!names?.length) return undefined;
  const ciphers: string[] = [];
  for (const name of names) {
    const cipher = TLS12_SUITES[name];
    if (cipher) ciphers.push(cipher);
    else if (!TLS13_SUITES.has(name)) throw new Error(`Cipher suite ${name} not supported or doesn't exist`);
  }
  return ciphers.length ? [...new Set(ciphers)].join(':') : undefined;
}
