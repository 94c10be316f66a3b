/**
 * Figure 1, startup: `memkube serve` as a whole process (node dist/cli/main.js), from spawn to the
 * first answered `GET /version`, against the bare node:http server process doing the same.
 * Target: at most 1.5× the bare server.
 */
import { get } from 'node:http';
import { figure, interleave, type Suite } from '../figure.js';
import { BARE_SERVER_ARGS, MEMKUBE_SERVE_ARGS, startServer } from '../processes.js';

/** Fetches `url` + /version on a fresh connection; resolves when the whole body arrived. */
function getVersion(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    get(`${url}/version`, { agent: false }, (res) => {
      res.on('data', () => {});
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`GET /version answered ${res.statusCode}`))));
    }).on('error', reject);
  });
}

/** Milliseconds from spawn to the first answered /version, then stops the process. */
async function startupMs(args: readonly string[]): Promise<number> {
  const server = await startServer(args);
  try {
    // The server prints its URL once it accepts connections; ask right away.
    await getVersion(server.url);
    return performance.now() - server.spawnedAt;
  } finally {
    await server.stop();
  }
}

/** The startup suite. */
export const startupSuite: Suite = {
  name: 'startup',
  figures: [{ id: 'startup', title: 'startup: spawn → first GET /version' }],
  needsBuild: true,
  quick: true,
  async run(rounds) {
    const { ours, baseline } = await interleave(
      rounds,
      () => startupMs(MEMKUBE_SERVE_ARGS),
      () => startupMs(BARE_SERVER_ARGS),
    );
    return [
      figure(
        {
          id: 'startup',
          title: 'memkube serve, spawn → first GET /version',
          unit: 'ms',
          baselineName: 'bare node:http process',
          target: { op: '<=', ratio: 1.5 },
          note: 'node dist/cli/main.js serve --port 0 vs node bench/baselines/bare-server.mjs',
        },
        ours,
        baseline,
      ),
    ];
  },
};
