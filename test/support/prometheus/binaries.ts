/**
 * Debian's `prometheus` package (2.42 on bookworm: the server and promtool, static Go programs),
 * fetched and unpacked into `.cache/prometheus/` by the shared package cache of test/support/debs.ts.
 * Only the package itself is fetched, not its dependencies (JavaScript libraries of the web UI and
 * `adduser`): the HTTP API, which the tests use, needs none of them.
 */
import { join } from 'node:path';
import { PROJECT_CACHE, unpackedPackages } from '../debs.js';

/** The project's cache directory for the prometheus package: `<repo>/.cache/prometheus`. */
export const DEFAULT_PROMETHEUS_CACHE = join(PROJECT_CACHE, 'prometheus');

/** The unpacked programs. */
export interface PrometheusBinaries {
  /** The server. */
  readonly prometheus: string;
  /** Its command-line tool (`promtool check metrics`, ...). */
  readonly promtool: string;
  /** The Debian package version, `2.42.0+ds-5+deb12u1`. */
  readonly version: string;
  /** The cache directory they were unpacked in. */
  readonly cacheDir: string;
}

const PROGRAMS = { prometheus: 'usr/bin/prometheus', promtool: 'usr/bin/promtool' } as const;

/**
 * The prometheus programs, fetched and unpacked on first use (about 19 MB from Debian), reused
 * afterwards. Rejects with `AptDownloadError` when apt cannot fetch the package.
 */
export async function prometheusBinaries(cacheDir: string = DEFAULT_PROMETHEUS_CACHE): Promise<PrometheusBinaries> {
  const unpacked = await unpackedPackages({ what: 'the prometheus package', packages: ['prometheus'], programs: PROGRAMS, cacheDir });
  return { ...unpacked.programs, version: unpacked.versions.prometheus!, cacheDir: unpacked.cacheDir };
}

/** The path of promtool, fetched on first use. */
export async function promtool(cacheDir?: string): Promise<string> {
  return (await prometheusBinaries(cacheDir)).promtool;
}
