/** `/version` and the health endpoints (`/healthz`, `/livez`, `/readyz`, with `?verbose`). */
import { HealthChecks } from '../metrics/health.js';

/** The Kubernetes version memkube reports. */
export const KUBERNETES_VERSION = { major: '1', minor: '36', gitVersion: 'v1.36.0' } as const;

/** The body of `/version` (`version.Info`). */
export function versionInfo(): Record<string, string> {
  return {
    major: KUBERNETES_VERSION.major,
    minor: KUBERNETES_VERSION.minor,
    emulationMajor: KUBERNETES_VERSION.major,
    emulationMinor: KUBERNETES_VERSION.minor,
    minCompatibilityMajor: KUBERNETES_VERSION.major,
    minCompatibilityMinor: String(Number(KUBERNETES_VERSION.minor) - 1),
    gitVersion: KUBERNETES_VERSION.gitVersion,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2026-01-01T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'memkube',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}

/** The checks of a door given none: ping alone, as k8s.io/apiserver's healthz installs when given no checks. */
const PING_ONLY = new HealthChecks(
  {
    healthz: [{ name: 'ping', check: () => undefined }],
    livez: [{ name: 'ping', check: () => undefined }],
    readyz: [{ name: 'ping', check: () => undefined }],
  },
  { slis: false },
);

const HEALTH_HEADERS = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache, private' };

/**
 * The answer of a health path (`/healthz`, `/readyz/etcd`, with `?verbose` and `?exclude`) from
 * the cluster's checks, or undefined when `pathname` is not one; `/healthz/<unknown>` is 404.
 */
export function healthResponse(checks: HealthChecks | undefined, pathname: string, params: URLSearchParams): Promise<Response> | undefined {
  const health = checks ?? PING_ONLY;
  const answer = health.answer(pathname, params);
  if (answer) return answer.then((a) => new Response(a.body, { status: a.status, headers: HEALTH_HEADERS }));
  const parts = pathname.split('/').filter(Boolean);
  if (parts.length >= 2 && (parts[0] === 'healthz' || parts[0] === 'livez' || parts[0] === 'readyz')) {
    return Promise.resolve(new Response('404 page not found\n', { status: 404, headers: HEALTH_HEADERS }));
  }
  return undefined;
}
