/**
 * The secured port's certificate, as kubelet finds it (`cmd/kubelet/app/server.go`
 * `InitializeTLS`): `--tls-cert-file` and `--tls-private-key-file` when given; otherwise
 * `kubelet.crt` and `kubelet.key` in `--cert-dir`, made once (a self-signed CA and a serving
 * certificate for the host name, as client-go's `GenerateSelfSignedCertKey`, the certificate file
 * holding the chain) and read again on every later start.
 */
import { access, mkdir, readFile, writeFile, constants } from 'node:fs/promises';
import { join } from 'node:path';
import { generateServingCertificate } from '../../pki/self-signed.js';

/**
 * The PEM certificate (chain) and key the secured port serves with, and where they came from.
 * @category Node agent
 */
export interface NodeAgentServingCertificate {
  readonly cert: string;
  readonly key: string;
  readonly certFile: string;
  readonly keyFile: string;
  /** Whether this start made them (false when read from files). */
  readonly generated: boolean;
}

/** Where the certificate comes from. */
export interface ServingCertificateSource {
  certFile?: string;
  keyFile?: string;
  /** `--cert-dir`, where a generated pair is kept. */
  certDir: string;
  /** The host name the generated certificate is for. */
  hostname: string;
  /** Epoch milliseconds the generated certificate's validity starts around. */
  now: number;
}

async function readable(path: string): Promise<boolean> {
  try {
    await access(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** Reads the configured pair, or the pair in the cert directory, making and saving it when absent. */
export async function loadServingCertificate(source: ServingCertificateSource): Promise<NodeAgentServingCertificate> {
  if (source.certFile || source.keyFile) {
    if (!source.certFile || !source.keyFile) throw new Error('both the TLS certificate file and the TLS private key file must be given, or neither');
    return {
      cert: await readFile(source.certFile, 'utf8'),
      key: await readFile(source.keyFile, 'utf8'),
      certFile: source.certFile,
      keyFile: source.keyFile,
      generated: false,
    };
  }
  const certFile = join(source.certDir, 'kubelet.crt');
  const keyFile = join(source.certDir, 'kubelet.key');
  const [haveCert, haveKey] = await Promise.all([readable(certFile), readable(keyFile)]);
  if (haveCert && haveKey) return { cert: await readFile(certFile, 'utf8'), key: await readFile(keyFile, 'utf8'), certFile, keyFile, generated: false };
  const made = await generateServingCertificate({ hosts: [source.hostname], commonName: source.hostname, now: source.now });
  // client-go's WriteCert and WriteKey: the directory 0755, the certificate 0644, the key 0600.
  const cert = made.serving.cert + made.ca.cert;
  await mkdir(source.certDir, { recursive: true, mode: 0o755 });
  await writeFile(certFile, cert, { mode: 0o644 });
  await writeFile(keyFile, made.serving.key, { mode: 0o600 });
  return { cert, key: made.serving.key, certFile, keyFile, generated: true };
}
