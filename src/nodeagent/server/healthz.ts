/**
 * `/healthz` as k8s.io/apiserver's `healthz.InstallHandler` serves it for kubelet: the checks
 * `ping`, `log` and `syncloop`, each also at `/healthz/<name>`; `?verbose` lists them, `?exclude=`
 * skips some, and a failing check answers 500 with every check's line, its reason withheld.
 */
import type { RouteContext, RouteHandler } from './router.js';
import { httpError } from './respond.js';
import { goQuote } from '../../util/go-format.js';

/** A named health check: undefined when healthy, else why not. */
export interface HealthCheck {
  readonly name: string;
  check(): string | undefined | Promise<string | undefined>;
}

function rootHandler(checks: readonly HealthCheck[]): RouteHandler {
  return async ({ res, query }: RouteContext) => {
    const excluded = new Set(query.getAll('exclude'));
    let lines = '';
    let failed = false;
    for (const c of checks) {
      if (excluded.delete(c.name)) {
        lines += `[+]${c.name} excluded: ok\n`;
        continue;
      }
      if ((await c.check()) !== undefined) {
        lines += `[-]${c.name} failed: reason withheld\n`;
        failed = true;
      } else {
        lines += `[+]${c.name} ok\n`;
      }
    }
    if (excluded.size) lines += `warn: some health checks cannot be excluded: no matches for ${[...excluded].sort().map(goQuote).join(',')}\n`;
    if (failed) return httpError(res, 500, `${lines}healthz check failed`);
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
    res.end(query.has('verbose') ? `${lines}healthz check passed\n` : 'ok');
  };
}

function checkHandler(check: HealthCheck): RouteHandler {
  return async ({ res }: RouteContext) => {
    const reason = await check.check();
    if (reason !== undefined) return httpError(res, 500, `internal server error: ${reason}`);
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('ok');
  };
}

/** The mux entries of `/healthz` and its checks. */
export function healthzHandlers(checks: readonly HealthCheck[]): [string, RouteHandler][] {
  return [['/healthz', rootHandler(checks)], ...checks.map((c): [string, RouteHandler] => [`/healthz/${c.name}`, checkHandler(c)])];
}
