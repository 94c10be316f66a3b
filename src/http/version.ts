/** `/version` and the health endpoints (`/healthz`, `/livez`, `/readyz`, with `?verbose`). */

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

const CHECKS: Record<string, string[]> = {
  healthz: ['ping', 'log', 'etcd', 'poststarthook/start-apiserver-admission-initializer'],
  livez: ['ping', 'log', 'etcd', 'poststarthook/start-apiserver-admission-initializer'],
  readyz: ['ping', 'log', 'etcd', 'etcd-readiness', 'informer-sync', 'poststarthook/start-apiserver-admission-initializer', 'shutdown'],
};

/** The answer of a health path, or undefined when `pathname` is not one. */
export function healthResponse(pathname: string, params: URLSearchParams): Response | undefined {
  const parts = pathname.split('/').filter(Boolean);
  const which = parts[0];
  // Own keys only: `/constructor` or `/valueOf` must not find Object.prototype.
  if (!which || !Object.hasOwn(CHECKS, which) || parts.length > 2) return undefined;
  const checks = CHECKS[which]!;
  const text = (body: string, status = 200) =>
    new Response(body, {
      status,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache, private' },
    });
  if (parts.length === 2) {
    const check = parts[1]!;
    return checks.includes(check) ? text('ok') : text('404 page not found\n', 404);
  }
  const excluded = new Set(params.getAll('exclude'));
  if (params.has('verbose')) {
    const lines = checks.map((c) => (excluded.has(c) ? `[+]${c} excluded: ok` : `[+]${c} ok`));
    return text(`${lines.join('\n')}\n${which} check passed\n`);
  }
  return text('ok');
}
