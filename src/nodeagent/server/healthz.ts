/**
 * `/healthz` as kubelet installs it (`InstallAuthNotRequiredHandlers` with k8s.io/apiserver's
 * `healthz.InstallHandler`): the checks `ping`, `log` and `syncloop`, each also at
 * `/healthz/<name>`; `?verbose` lists them, `?exclude=` skips some, and a failing check answers
 * 500 with every check's line, its reason withheld. Every run of `/healthz` feeds the SLI metrics
 * of `/metrics/slis`.
 */
import { HealthChecks } from '../../metrics/health.js';
import type { RouteHandler } from './router.js';

/** kubelet's `syncLoopHealthCheck` message. */
export const SYNC_LOOP_UNHEALTHY = 'sync Loop took longer than expected';

/** Options of {@link nodeAgentHealthChecks}. */
export interface NodeAgentHealthOptions {
  /** The sync loop's health: undefined when healthy, else why not. */
  readonly syncLoopHealth?: () => string | undefined;
  /** The ComponentSLIs gate: the checks' SLI metrics are kept; true by default. */
  readonly slis?: boolean;
}

/** kubelet's checks: `ping` and `log` always pass (memkube's log never stalls), `syncloop` asks the agent. */
export function nodeAgentHealthChecks(options: NodeAgentHealthOptions): HealthChecks {
  return new HealthChecks(
    {
      healthz: [
        { name: 'ping', check: () => undefined },
        { name: 'log', check: () => undefined },
        {
          name: 'syncloop',
          check: () => {
            const reason = options.syncLoopHealth?.();
            if (reason !== undefined) throw new Error(reason);
          },
        },
      ],
    },
    { slis: options.slis ?? true },
  );
}

/** The mux entries of `/healthz` and each of its checks. */
export function healthzHandlers(health: HealthChecks): [string, RouteHandler][] {
  const handler =
    (path: string): RouteHandler =>
    async ({ res, query }) => {
      const answer = await health.answer(path, query);
      if (!answer) return;
      // The root handler sets its type and nosniff; a single check's "ok" is sniffed by net/http, its error is http.Error's.
      const headers: Record<string, string> = { 'Content-Type': 'text/plain; charset=utf-8' };
      if (path === '/healthz' || answer.status !== 200) headers['X-Content-Type-Options'] = 'nosniff';
      res.writeHead(answer.status, headers);
      res.end(answer.body);
    };
  return [
    ['/healthz', handler('/healthz')],
    ...health.names('healthz').map((name): [string, RouteHandler] => [`/healthz/${name}`, handler(`/healthz/${name}`)]),
  ];
}
