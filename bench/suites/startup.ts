/**
 * Figure 1, startup: `memkube serve` as a whole process (node dist/cli/main.js), from spawn to the
 * first answered `GET /version`, against the bare node:http server process doing the same.
 * Target: at most 1.5× the bare server. Its twin `startup-cpu` is the main thread's on-CPU time up
 * to that answer: wall time on a shared machine also counts the time the process waited for a
 * core, and a start's own work is its main thread's.
 */
import { get } from 'node:http';
import { figure, interleave, type FigureResult, type Suite } from '../figure.js';
import { threadCpuMs } from '../process-cpu.js';
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

/** One start: milliseconds from spawn to the first answered /version, and the main thread's CPU milliseconds by then. */
interface Start {
  readonly ms: number;
  readonly cpuMs: number | undefined;
}

/** Starts the process, asks for /version, reads the clock and its CPU time, then stops it. */
async function start(args: readonly string[]): Promise<Start> {
  const server = await startServer(args);
  try {
    // The server prints its URL once it accepts connections; ask right away.
    await getVersion(server.url);
    const ms = performance.now() - server.spawnedAt;
    return { ms, cpuMs: threadCpuMs(server.pid)?.main };
  } finally {
    await server.stop();
  }
}

/** The startup suite. */
export const startupSuite: Suite = {
  name: 'startup',
  figures: [
    { id: 'startup', title: 'startup: spawn → first GET /version' },
    { id: 'startup-cpu', title: 'startup: main-thread CPU to the first GET /version' },
  ],
  needsBuild: true,
  quick: true,
  async run(rounds) {
    const { ours, baseline } = await interleave(
      rounds,
      () => start(MEMKUBE_SERVE_ARGS),
      () => start(BARE_SERVER_ARGS),
    );
    const results: FigureResult[] = [
      figure(
        {
          id: 'startup',
          title: 'memkube serve, spawn → first GET /version',
          unit: 'ms',
          baselineName: 'bare node:http process',
          target: { op: '<=', ratio: 1.5 },
          note: 'node dist/cli/main.js serve --port 0 vs node bench/baselines/bare-server.mjs',
        },
        ours.map((s) => s.ms),
        baseline.map((s) => s.ms),
      ),
    ];
    // Without /proc (not Linux) there is no CPU reading, and the twin is left out.
    const cpu = (starts: readonly Start[]) => starts.map((s) => s.cpuMs).filter((ms): ms is number => ms !== undefined);
    const oursCpu = cpu(ours);
    const baselineCpu = cpu(baseline);
    if (oursCpu.length === rounds && baselineCpu.length === rounds) {
      results.push(
        figure(
          {
            id: 'startup-cpu',
            title: 'memkube serve, main-thread CPU to the first GET /version',
            unit: 'ms',
            baselineName: 'bare node:http process',
            note: 'on-CPU time of the main thread (/proc/PID/task/PID/schedstat) when the first answer has arrived; the helper threads work beside it',
          },
          oursCpu,
          baselineCpu,
        ),
      );
    }
    return results;
  },
};
