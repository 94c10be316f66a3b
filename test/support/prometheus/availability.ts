/**
 * Whether the real-Prometheus tests can run here: they need root (apt downloads as root into the
 * project's cache) and, on first use, a Debian mirror apt can reach. Those are the only reasons to
 * skip; any other failure (dpkg, a program missing from the package) is thrown, so it fails the file.
 */
import { AptDownloadError } from '../debs.js';
import { prometheusBinaries, type PrometheusBinaries } from './binaries.js';

/** The harness's binaries, or why the tests skip. */
export type PrometheusAvailability =
  { readonly available: true; readonly binaries: PrometheusBinaries } | { readonly available: false; readonly reason: string };

/** Fetches the package (once, cached) unless this machine cannot; see the module comment. */
export async function prometheusAvailability(cacheDir?: string): Promise<PrometheusAvailability> {
  if (process.getuid?.() !== 0) return { available: false, reason: 'not root: apt-get download of the prometheus package needs root here' };
  try {
    return { available: true, binaries: await prometheusBinaries(cacheDir) };
  } catch (err) {
    if (err instanceof AptDownloadError) return { available: false, reason: `apt cannot download the prometheus package: ${err.message.split('\n')[0]}` };
    throw err;
  }
}
