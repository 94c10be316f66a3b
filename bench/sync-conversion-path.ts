/**
 * A micro-benchmark of the engine's synchronous path: in-process creates, then gets, of 1 KB
 * ConfigMaps (a kind that does not convert), timed for two source trees run alternately, so a
 * change to how conversion is called can be compared with the code before it on a busy machine.
 *
 *   npx tsx bench/sync-conversion-path.ts --base /tmp/base-checkout [--rounds 5] [--count 20000]
 *
 * `--base` is a checkout of the code to compare with (its node_modules may be a symlink); the
 * other tree is this one. Each round runs one child process per tree (base first on odd rounds,
 * this tree first on even ones); the figures are the medians and minimums of the rounds, in
 * microseconds per operation. A child started with `--child <root>` runs one measurement and prints it as JSON.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchConfigMap } from './configmap.js';

interface Measurement {
  createUs: number;
  getUs: number;
}

interface ClientLike {
  create(obj: unknown, options: { namespace: string }): Promise<unknown>;
  get(name: string, options: { namespace: string }): Promise<unknown>;
}

interface ClusterLike {
  client: { resource(gvr: { group: string; version: string; resource: string }): ClientLike };
  close(): Promise<void>;
}

const WARMUP = 2000;

async function measure(root: string, count: number): Promise<Measurement> {
  const mod = (await import(pathToFileURL(resolve(root, 'src/cluster.ts')).href)) as { createCluster(): Promise<ClusterLike> };
  const cluster = await mod.createCluster();
  const configMaps = cluster.client.resource({ group: '', version: 'v1', resource: 'configmaps' });
  const ns = { namespace: 'default' };
  for (let i = 0; i < WARMUP; i++) await configMaps.create(benchConfigMap(`warm-${i}`), ns);
  for (let i = 0; i < WARMUP; i++) await configMaps.get(`warm-${i}`, ns);
  const bodies = Array.from({ length: count }, (_, i) => benchConfigMap(`cm-${i}`));
  let t = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await configMaps.create(bodies[i], ns);
  const createNs = Number(process.hrtime.bigint() - t);
  t = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await configMaps.get(`cm-${i}`, ns);
  const getNs = Number(process.hrtime.bigint() - t);
  await cluster.close();
  return { createUs: createNs / count / 1000, getUs: getNs / count / 1000 };
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function runChild(root: string, count: number): Measurement {
  const self = fileURLToPath(import.meta.url);
  const out = spawnSync(process.execPath, ['--import', 'tsx', self, '--child', root, '--count', String(count)], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`child for ${root} failed: ${out.stderr}`);
  return JSON.parse(out.stdout.trim().split('\n').pop()!) as Measurement;
}

async function main(): Promise<void> {
  const count = Number(arg('--count') ?? 20000);
  const child = arg('--child');
  if (child) {
    process.stdout.write(`${JSON.stringify(await measure(child, count))}\n`);
    return;
  }
  const base = arg('--base');
  if (!base) throw new Error('--base <checkout> is required');
  const here = resolve(fileURLToPath(import.meta.url), '../..');
  const rounds = Number(arg('--rounds') ?? 5);
  const results: Record<'base' | 'this', Measurement[]> = { base: [], this: [] };
  for (let r = 0; r < rounds; r++) {
    const order: ('base' | 'this')[] = r % 2 === 0 ? ['base', 'this'] : ['this', 'base'];
    for (const which of order) {
      const m = runChild(which === 'base' ? base : here, count);
      results[which].push(m);
      process.stdout.write(`round ${r + 1} ${which}: create ${m.createUs.toFixed(1)} µs, get ${m.getUs.toFixed(1)} µs\n`);
    }
  }
  for (const which of ['base', 'this'] as const) {
    const ms = results[which];
    const creates = ms.map((m) => m.createUs);
    const gets = ms.map((m) => m.getUs);
    process.stdout.write(
      `${which}: create median ${median(creates).toFixed(1)} min ${Math.min(...creates).toFixed(1)} µs/op, get median ${median(gets).toFixed(1)} min ${Math.min(...gets).toFixed(1)} µs/op (${count} each, ${rounds} rounds)\n`,
    );
  }
}

await main();
