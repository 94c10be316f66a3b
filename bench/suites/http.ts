/**
 * Figures 2 and 3, over HTTP with the load generator (keep-alive, 16 in flight):
 * - GET of one ConfigMap from memkube serve vs the bare node:http server answering a fixed 1 KB
 *   JSON; target: at least 0.8× its requests/s.
 * - create (POST) of unique ~1 KB ConfigMaps vs the bare server parsing the body, storing it in a
 *   Map and answering 201 with it; target: at least 0.5×, and at most 100 µs of server CPU time
 *   per create (absolute).
 * Both servers run as separate processes for the whole suite; rounds alternate between them. The
 * load generator runs in this process, so on a 2-core machine it shares the CPU with the server the
 * same way for both sides. Each figure has a `-cpu` twin: the server process's own CPU time per
 * request over the same rounds.
 */
import { benchConfigMap } from '../configmap.js';
import { interleave, type FigureResult, type Suite } from '../figure.js';
import { httpFigures, httpRound, roundLoad } from '../http-rounds.js';
import { configMapBodies, runLoad, type LoadOptions } from '../load.js';
import { BARE_SERVER_ARGS, MEMKUBE_SERVE_ARGS, startServer, type ServerProcess } from '../processes.js';

const CONCURRENCY = 16;
/** Length of one measured round per side, and of the warm-up per server and figure (not recorded: JIT, connections). */
const PACE = { full: { roundMs: 2000, warmupMs: 1000 }, quick: { roundMs: 700, warmupMs: 400 } };
const CM_PATH = '/api/v1/namespaces/default/configmaps';

/** The HTTP suite. */
export const httpSuite: Suite = {
  name: 'http',
  figures: [
    { id: 'http-get', title: 'HTTP GET one object' },
    { id: 'http-get-cpu', title: 'HTTP GET one object: server CPU per request' },
    { id: 'http-create', title: 'HTTP create 1 KB ConfigMap' },
    { id: 'http-create-cpu', title: 'HTTP create 1 KB ConfigMap: server CPU per request' },
  ],
  needsBuild: true,
  quick: true,
  async run(rounds, log, pace) {
    const { roundMs: ROUND_MS, warmupMs: WARMUP_MS } = pace.quick ? PACE.quick : PACE.full;
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

      const load = (server: ServerProcess, options: Omit<LoadOptions, 'url'>): LoadOptions => roundLoad(server, CONCURRENCY, ROUND_MS, options);

      log('http-get: warm-up');
      await runLoad({ ...load(memkube, { path: getPath }), durationMs: WARMUP_MS });
      await runLoad({ ...load(bare, { path: getPath }), durationMs: WARMUP_MS });
      const get = await interleave(
        rounds,
        () => httpRound(load(memkube, { path: getPath }), 200),
        () => httpRound(load(bare, { path: getPath }), 200),
      );
      results.push(
        ...httpFigures(
          {
            id: 'http-get',
            title: 'HTTP GET one object (16 in flight)',
            baselineName: 'bare node:http, fixed 1 KB JSON',
            target: { op: '>=', ratio: 0.8 },
            note: `GET ${getPath} (a ~1.3 KB stored ConfigMap), ${ROUND_MS} ms per round`,
          },
          get.ours,
          get.baseline,
        ),
      );

      log('http-create: warm-up');
      let run = 0;
      // Unique names per round and server, so no create is ever a 409.
      const creates = (server: ServerProcess, side: string): LoadOptions =>
        load(server, { method: 'POST', path: CM_PATH, makeBody: configMapBodies(`bench-${side}-${run++}`) });
      await runLoad({ ...creates(memkube, 'warm'), durationMs: WARMUP_MS });
      await runLoad({ ...creates(bare, 'warm'), durationMs: WARMUP_MS });
      const create = await interleave(
        rounds,
        () => httpRound(creates(memkube, 'ours'), 201),
        () => httpRound(creates(bare, 'bare'), 201),
      );
      results.push(
        ...httpFigures(
          {
            id: 'http-create',
            title: 'HTTP create 1 KB ConfigMap (16 in flight)',
            baselineName: 'bare node:http, JSON.parse + Map + 201',
            target: { op: '>=', ratio: 0.5 },
            cpuAbsoluteTarget: { op: '<=', value: 100 },
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
