/**
 * Figures 2 and 3, over HTTP with the load generator (keep-alive, 16 in flight):
 * - GET of one ConfigMap from memkube serve vs the bare node:http server answering a fixed 1 KB
 *   JSON; target: at least 0.6× its requests/s.
 * - create (POST) of unique ~1 KB ConfigMaps vs the bare server parsing the body, storing it in a
 *   Map and answering 201 with it; target: at least 0.4×.
 * Both servers run as separate processes for the whole suite; rounds alternate between them. The
 * load generator runs in this process, so on a 2-core machine it shares the CPU with the server the
 * same way for both sides.
 */
import { benchConfigMap } from '../configmap.js';
import { figure, interleave, type FigureResult, type Suite } from '../figure.js';
import { configMapBodies, runLoad, type LoadOptions } from '../load.js';
import { BARE_SERVER_ARGS, MEMKUBE_SERVE_ARGS, startServer } from '../processes.js';

const CONCURRENCY = 16;
/** Length of one measured round per side. */
const ROUND_MS = 2000;
/** Warm-up per server and figure, not recorded (JIT, connection pool). */
const WARMUP_MS = 1000;
const CM_PATH = '/api/v1/namespaces/default/configmaps';

/** Requests/s of one round; throws when anything but `okStatus` came back (a broken figure). */
async function rate(options: LoadOptions, okStatus: number): Promise<number> {
  const r = await runLoad({ concurrency: CONCURRENCY, durationMs: ROUND_MS, ...options });
  const bad = Object.entries(r.statusCodes).filter(([code]) => Number(code) !== okStatus);
  if (r.errors > 0 || bad.length > 0) {
    throw new Error(`${r.method} ${r.url}: ${r.errors} errors ${JSON.stringify(r.errorMessages)}, statuses ${JSON.stringify(r.statusCodes)}`);
  }
  return r.requestsPerSecond;
}

/** The HTTP suite. */
export const httpSuite: Suite = {
  name: 'http',
  figures: [
    { id: 'http-get', title: 'HTTP GET one object' },
    { id: 'http-create', title: 'HTTP create 1 KB ConfigMap' },
  ],
  needsBuild: true,
  async run(rounds, log) {
    const memkube = await startServer(MEMKUBE_SERVE_ARGS);
    const bare = await startServer(BARE_SERVER_ARGS);
    try {
      const created = await fetch(`${memkube.url}${CM_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(benchConfigMap('bench-get')),
      });
      if (created.status !== 201) throw new Error(`creating the GET target answered ${created.status}: ${await created.text()}`);
      const getPath = `${CM_PATH}/bench-get`;
      const results: FigureResult[] = [];

      log('http-get: warm-up');
      await runLoad({ url: memkube.url, path: getPath, concurrency: CONCURRENCY, durationMs: WARMUP_MS });
      await runLoad({ url: bare.url, path: getPath, concurrency: CONCURRENCY, durationMs: WARMUP_MS });
      const get = await interleave(
        rounds,
        () => rate({ url: memkube.url, path: getPath }, 200),
        () => rate({ url: bare.url, path: getPath }, 200),
      );
      results.push(
        figure(
          {
            id: 'http-get',
            title: 'HTTP GET one object (16 in flight)',
            unit: 'req/s',
            baselineName: 'bare node:http, fixed 1 KB JSON',
            target: { op: '>=', ratio: 0.6 },
            note: `GET ${getPath} (a ~1.3 KB stored ConfigMap), ${ROUND_MS} ms per round`,
          },
          get.ours,
          get.baseline,
        ),
      );

      log('http-create: warm-up');
      let run = 0;
      // Unique names per round and server, so no create is ever a 409.
      const creates = (url: string, side: string): LoadOptions => ({ url, method: 'POST', path: CM_PATH, makeBody: configMapBodies(`bench-${side}-${run++}`) });
      await runLoad({ ...creates(memkube.url, 'warm'), concurrency: CONCURRENCY, durationMs: WARMUP_MS });
      await runLoad({ ...creates(bare.url, 'warm'), concurrency: CONCURRENCY, durationMs: WARMUP_MS });
      const create = await interleave(
        rounds,
        () => rate(creates(memkube.url, 'ours'), 201),
        () => rate(creates(bare.url, 'bare'), 201),
      );
      results.push(
        figure(
          {
            id: 'http-create',
            title: 'HTTP create 1 KB ConfigMap (16 in flight)',
            unit: 'req/s',
            baselineName: 'bare node:http, JSON.parse + Map + 201',
            target: { op: '>=', ratio: 0.4 },
            note: `POST ${CM_PATH}, unique names, ${ROUND_MS} ms per round; the store grows over the rounds on both sides`,
          },
          create.ours,
          create.baseline,
        ),
      );
      return results;
    } finally {
      await memkube.stop();
      await bare.stop();
    }
  },
};
