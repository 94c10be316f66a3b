/**
 * Using memkube in process: create a cluster, write and read ConfigMaps, watch errors come back
 * exactly as Kubernetes would send them. Run with `npx tsx examples/in-process-client.ts`.
 */
import { ApiError, createCluster, kinds } from 'memkube';

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const cluster = await createCluster();
  try {
    const configMaps = cluster.client.resource(kinds.ConfigMapKind);
    const created = await configMaps.create({ metadata: { name: 'settings', labels: { app: 'demo' } }, data: { mode: 'fast' } }, { namespace: 'default' });
    log(`created ${created.metadata?.name} at resourceVersion ${created.metadata?.resourceVersion}`);

    created.data = { mode: 'safe' };
    const updated = await configMaps.update(created);
    log(`updated to mode=${updated.data?.mode}, resourceVersion ${updated.metadata?.resourceVersion}`);

    try {
      await configMaps.update(created); // stale resourceVersion
    } catch (e) {
      if (e instanceof ApiError) log(`${e.code} ${e.reason}: ${e.message}`);
    }

    const listed = await configMaps.list({ namespace: 'default', labelSelector: 'app=demo' });
    log(`listed ${listed.items.length} ConfigMap(s) with app=demo`);
  } finally {
    await cluster.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
