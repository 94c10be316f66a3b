/**
 * Server process of the metrics and audit suites: in-process clusters of the built library
 * (`createCluster` of dist/index.js), each served on its own port of 127.0.0.1, one per mode of
 * `--modes` (a comma-separated list, in that order):
 * - `off`: `createCluster({ metrics: false })`, the baseline;
 * - `on`: as by default, metrics kept;
 * - `audit`: metrics kept and every request audited at Metadata level to a JSON-lines file of its
 *   own (`--audit-log PREFIX`: the cluster at position i writes `PREFIX.i`), through
 *   `createCluster({ audit: { policy, backends } })`.
 * Several clusters share the process so that a figure compares them within one process: what
 * differs between two processes (where the kernel runs them, what the JIT made of them) then
 * cannot pass for the cost of what is switched on.
 * Prints `clusters URL...` (in the order of the modes), then `bench server serving on URL`.
 * Usage: node --import tsx bench/suites/metrics-server.ts --modes on,off,off,on [--audit-log PREFIX]
 */
import type { createCluster as CreateCluster } from '../../src/index.js';
import { LIBRARY } from '../processes.js';
import { JsonLinesFileBackend, METADATA_POLICY } from '../audit-log.js';

const MODES = ['off', 'on', 'audit'] as const;
type Mode = (typeof MODES)[number];

function flag(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

async function main(args: readonly string[]): Promise<void> {
  const modes = (flag(args, '--modes') ?? '').split(',');
  if (!modes.every((m): m is Mode => (MODES as readonly string[]).includes(m))) throw new Error('--modes must list off, on or audit, comma-separated');
  const auditLog = flag(args, '--audit-log');
  if (modes.includes('audit') && !auditLog) throw new Error('--modes with audit needs --audit-log PREFIX');
  // The built library, as a user runs it (the suite builds it first when src/ is newer).
  const { createCluster } = (await import(LIBRARY)) as { createCluster: typeof CreateCluster };
  const backends: JsonLinesFileBackend[] = [];
  const clusters = [];
  const urls: string[] = [];
  for (const [i, mode] of modes.entries()) {
    const backend = mode === 'audit' ? new JsonLinesFileBackend(`${auditLog!}.${i}`) : undefined;
    if (backend) backends.push(backend);
    // The audit option is built apart and cast: it is checked at run time (the suite looks for
    // events in the log), so the bench runs, and says audit is not available, on a build without it.
    const options = { metrics: mode !== 'off', ...(backend ? { audit: { policy: METADATA_POLICY, backends: [backend] } } : {}) };
    const cluster = await createCluster(options as Parameters<typeof CreateCluster>[0]);
    clusters.push(cluster);
    urls.push((await cluster.listen({ port: 0, host: '127.0.0.1' })).url);
  }
  process.stdout.write(`clusters ${urls.join(' ')}\nbench server serving on ${urls[0]}\n`);
  await new Promise<void>((resolve) => process.once('SIGTERM', () => resolve()));
  for (const cluster of clusters) await cluster.close();
  for (const backend of backends) await backend.shutdown();
}

await main(process.argv.slice(2));
