/**
 * Child process of the metrics suite's in-process figures: two clusters of the built library
 * (dist/index.js) in this process, one with
 * the API server's metrics (as by default) and one with `createCluster({ metrics: false })`, each
 * asked through `cluster.fetch` (the engine's whole request path without sockets) one request at a
 * time, in alternating rounds. A round's sample is this process's CPU time per request
 * (process.cpuUsage), so the machine's other load does not count as the wall time would.
 * Prints one JSON line: `{ get: { on: [...], off: [...] }, create: { ... } }` in microseconds.
 * Usage: node --import tsx bench/suites/metrics-fetch-child.ts ROUNDS
 */
import type { Cluster, createCluster as CreateCluster } from '../../src/index.js';
import { LIBRARY } from '../processes.js';
import { benchConfigMap } from '../configmap.js';

const rounds = Number(process.argv[2] ?? 5);
/** Requests per round and side. */
const PER_ROUND = { get: 4000, create: 2000 } as const;
const CM_PATH = 'http://memkube.invalid/api/v1/namespaces/default/configmaps';

let created = 0;
const request = {
  get: () => new Request(`${CM_PATH}/bench-get`),
  create: () =>
    new Request(CM_PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(benchConfigMap(`bench-${created++}`)) }),
};

async function cpuPerRequest(cluster: Cluster, kind: 'get' | 'create', count: number): Promise<number> {
  const expected = kind === 'get' ? 200 : 201;
  const t0 = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const res = await cluster.fetch(request[kind]());
    await res.arrayBuffer();
    if (res.status !== expected) throw new Error(`${kind} answered ${res.status}`);
  }
  const used = process.cpuUsage(t0);
  return (used.user + used.system) / count;
}

// The built library, as a user runs it.
const { createCluster } = (await import(LIBRARY)) as { createCluster: typeof CreateCluster };
const on = await createCluster();
const off = await createCluster({ metrics: false });
for (const cluster of [on, off]) {
  const res = await cluster.fetch(
    new Request(CM_PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(benchConfigMap('bench-get')) }),
  );
  if (res.status !== 201) throw new Error(`creating the GET target answered ${res.status}`);
}
const result: Record<'get' | 'create', { on: number[]; off: number[] }> = { get: { on: [], off: [] }, create: { on: [], off: [] } };
for (const kind of ['get', 'create'] as const) {
  // Warm-up: the JIT and both stores, not recorded.
  await cpuPerRequest(on, kind, PER_ROUND[kind]);
  await cpuPerRequest(off, kind, PER_ROUND[kind]);
  for (let r = 0; r < rounds; r++) {
    result[kind].on.push(await cpuPerRequest(on, kind, PER_ROUND[kind]));
    result[kind].off.push(await cpuPerRequest(off, kind, PER_ROUND[kind]));
  }
}
await on.close();
await off.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
