/**
 * The kubelet's client certificate store (client-go's `certificate.NewFileStore("kubelet-client",
 * certDir, certDir, "", "")`): each certificate is written with its key into
 * `<certDir>/kubelet-client-<2006-01-02-15-04-05>.pem`, and `kubelet-client-current.pem` is a
 * symlink to the newest, swapped atomically.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The prefix of every file of the store. */
export const CLIENT_PAIR_PREFIX = 'kubelet-client';
/** The symlink to the newest certificate and key. */
export const CURRENT_FILE = `${CLIENT_PAIR_PREFIX}-current.pem`;

/** Go's `2006-01-02-15-04-05` layout of a time, UTC. */
function stamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', '-').replace(/:/g, '-');
}

/** The certificate and key the store holds now, or undefined when there is none (or it does not parse). */
export async function currentPair(certDir: string): Promise<{ cert: string; key: string; path: string } | undefined> {
  const path = join(certDir, CURRENT_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  const key = /-----BEGIN (?:EC |RSA )?PRIVATE KEY-----[\s\S]*?-----END (?:EC |RSA )?PRIVATE KEY-----\n?/.exec(text)?.[0];
  const cert = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\n?/.exec(text)?.[0];
  if (!key || !cert) return undefined;
  try {
    createPrivateKey(key);
    new X509Certificate(cert);
  } catch {
    return undefined;
  }
  return { cert, key, path };
}

/** Writes a new pair and points the current symlink at it; answers the symlink's path. */
export async function updatePair(certDir: string, certPem: string, keyPem: string, now: number): Promise<{ current: string; file: string }> {
  await mkdir(certDir, { recursive: true, mode: 0o755 });
  const name = `${CLIENT_PAIR_PREFIX}-${stamp(now)}.pem`;
  const file = join(certDir, name);
  const body = `${certPem.endsWith('\n') ? certPem : `${certPem}\n`}${keyPem.endsWith('\n') ? keyPem : `${keyPem}\n`}`;
  await writeFile(file, body, { mode: 0o600 });
  const current = join(certDir, CURRENT_FILE);
  // A new link beside the old one, renamed over it: readers see the old pair or the new one.
  const updating = join(certDir, `${CLIENT_PAIR_PREFIX}-updated.pem`);
  await rm(updating, { force: true });
  await symlink(file, updating);
  await rename(updating, current);
  return { current, file };
}
