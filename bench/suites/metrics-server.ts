/**
 * Server process of the metrics and audit suites: one in-process cluster (`createCluster` of the
 * built library, dist/index.js) served by
 * `cluster.listen()` on a free port of 127.0.0.1, in one of three modes:
 * - `off`: `createCluster({ metrics: false })`, nothing counted: the baseline;
 * - `on`: the API server's metrics kept, as by default;
 * - `audit`: metrics kept and every request audited at Metadata level to a JSON-lines file
 *   (`--audit-log FILE`), through `createCluster({ audit: { policy, backends } })`.
 * Prints `bench server serving on URL` once it accepts connections; stops on SIGTERM.
 * Usage: node --import tsx bench/suites/metrics-server.ts --mode off|on|audit [--audit-log FILE]
 */
import type { createCluster as CreateCluster } from '../../src/index.js';
import { LIBRARY } from '../processes.js';
import { JsonLinesFileBackend, METADATA_POLICY } from '../audit-log.js';

function flag(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

async function main(args: readonly string[]): Promise<void> {
  const mode = flag(args, '--mode');
  if (mode !== 'off' && mode !== 'on' && mode !== 'audit') throw new Error('--mode must be off, on or audit');
  const auditLog = flag(args, '--audit-log');
  if (mode === 'audit' && !auditLog) throw new Error('--mode audit needs --audit-log FILE');
  const backend = mode === 'audit' ? new JsonLinesFileBackend(auditLog!) : undefined;
  // The audit option is built apart and cast: it is checked at run time (the suite looks for events
  // in the log), so the bench runs, and says audit is not available, on a build without it.
  const options = { metrics: mode !== 'off', ...(backend ? { audit: { policy: METADATA_POLICY, backends: [backend] } } : {}) };
  // The built library, as a user runs it (the suite builds it first when src/ is newer).
  const { createCluster } = (await import(LIBRARY)) as { createCluster: typeof CreateCluster };
  const cluster = await createCluster(options as Parameters<typeof CreateCluster>[0]);
  const server = await cluster.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`bench server serving on ${server.url}\n`);
  await new Promise<void>((resolve) => process.once('SIGTERM', () => resolve()));
  await cluster.close();
  await backend?.shutdown();
}

await main(process.argv.slice(2));
