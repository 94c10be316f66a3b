/**
 * Snapshots and forks: build a fixture once, give each test a clean copy of it (`reset`, well
 * under a millisecond: see the `fork` benchmark), run a what-if on an independent copy (`fork`),
 * and keep the state as JSON for another process. Run with `npx tsx examples/snapshots.ts`.
 */
import { createCluster, kinds, loadSnapshot } from 'memkube';

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const cluster = await createCluster();
  const forks = [];
  try {
    const configMaps = cluster.client.resource(kinds.ConfigMapKind);
    for (let i = 0; i < 200; i++) await configMaps.create({ metadata: { name: `fixture-${i}` }, data: { i: String(i) } });
    await cluster.settle();
    const fixture = cluster.snapshot();
    log(`fixture: ${fixture.size} objects at resourceVersion ${fixture.revision}`);

    // A "test" changes things; the reset puts the fixture back.
    await configMaps.delete('fixture-0', { namespace: 'default' });
    await configMaps.create({ metadata: { name: 'made-by-a-test' } });
    await cluster.reset(fixture);
    const names = (await configMaps.list({ namespace: 'default' })).items.map((c) => c.metadata?.name);
    log(
      `after reset: fixture-0 ${names.includes('fixture-0') ? 'is back' : 'is missing'}, made-by-a-test ${names.includes('made-by-a-test') ? 'remains' : 'is gone'}`,
    );

    // A fork is an independent cluster: what it does stays there.
    const whatIf = await cluster.fork();
    forks.push(whatIf);
    await whatIf.client.resource(kinds.ConfigMapKind).deleteCollection({ namespace: 'default' });
    const left = (await configMaps.list({ namespace: 'default' })).items.length;
    const inFork = (await whatIf.client.resource(kinds.ConfigMapKind).list({ namespace: 'default' })).items.length;
    log(`the fork emptied its default namespace (${inFork} left); this cluster still has ${left}`);

    // A snapshot serializes to JSON and loads back, checked, as `memkube serve --save` and `--load` do.
    const copy = await createCluster({ from: loadSnapshot(JSON.stringify(fixture)) });
    forks.push(copy);
    const one = await copy.client.resource(kinds.ConfigMapKind).get('fixture-1', { namespace: 'default' });
    const original = await configMaps.get('fixture-1', { namespace: 'default' });
    log(`loaded from JSON: fixture-1 has the same uid: ${one.metadata?.uid === original.metadata?.uid}`);
  } finally {
    for (const fork of forks) await fork.close();
    await cluster.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
