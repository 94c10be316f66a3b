/**
 * A small operator run against memkube, as its tests would: a controller gives every namespace
 * labelled `team` a `welcome` ConfigMap; the program creates namespaces and waits, with `waitFor`,
 * for the controller to have done its work, on a cluster clock that moves only when advanced.
 * Run with `npx tsx examples/test-an-operator.ts`.
 */
import { createCluster, waitFor, WaitTimeoutError, type Client } from 'memkube';

/** Gives every namespace labelled `team` a `welcome` ConfigMap naming the team; resolves to a stop function. */
export async function startWelcomeController(client: Client): Promise<() => Promise<void>> {
  const namespaces = await client.namespaces().watch({ labelSelector: 'team' });
  const loop = (async () => {
    for await (const event of namespaces) {
      if (event.type !== 'ADDED' && event.type !== 'MODIFIED') continue;
      const namespace = event.object.metadata?.name ?? '';
      await client
        .configMaps(namespace)
        .apply(
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'welcome' }, data: { team: event.object.metadata?.labels?.team ?? '' } },
          { fieldManager: 'welcome-controller', force: true },
        );
    }
  })();
  return async () => {
    namespaces.close();
    await loop;
  };
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const cluster = await createCluster({ clock: new Date('2026-01-01T00:00:00Z') });
  const stop = await startWelcomeController(cluster.client);
  try {
    await cluster.client.namespaces().create({ metadata: { name: 'blue-team', labels: { team: 'blue' } } });
    const welcome = await waitFor(cluster.client.configMaps('blue-team'), 'welcome', (cm) => cm?.data?.team === 'blue', { timeout: 5_000 });
    log(`blue-team welcomed team ${welcome?.data?.team}, managed by ${welcome?.metadata?.managedFields?.map((f) => f.manager).join(', ')}`);

    await cluster.client.namespaces().create({ metadata: { name: 'quiet' } });
    const quiet = waitFor(cluster.client.configMaps('quiet'), 'welcome', (cm) => cm !== undefined, { timeout: 1_000 });
    cluster.clock.advance(1_000);
    try {
      await quiet;
    } catch (e) {
      if (e instanceof WaitTimeoutError) log(`quiet: ${e.message}`);
      else throw e;
    }
  } finally {
    await stop();
    await cluster.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
