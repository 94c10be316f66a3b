/**
 * Simulating a failing API server: code under test retries a throttled create, survives a
 * conflict on update, and a watch that expires with 410 Gone makes it list again. Over HTTP the
 * same fault answers 429 with a Retry-After header. Run with `npx tsx examples/simulate-failures.ts`.
 */
import { ApiError, createCluster, kinds } from 'memkube';

/** What the code under test does: retry an operation on 429 and 409, a few times. */
async function withRetries<T>(operation: () => Promise<T>, attempts = 3): Promise<{ result: T; tries: number }> {
  for (let tries = 1; ; tries++) {
    try {
      return { result: await operation(), tries };
    } catch (e) {
      const retriable = e instanceof ApiError && (e.code === 429 || e.code === 409);
      if (!retriable || tries >= attempts) throw e;
    }
  }
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const cluster = await createCluster({ clock: new Date('2026-01-01T00:00:00Z') });
  const server = await cluster.listen({ port: 0, host: '127.0.0.1' });
  try {
    const configMaps = cluster.client.resource(kinds.ConfigMapKind);
    cluster.requests.start();

    // Throttled twice, then through.
    cluster.faults.add({ match: { verb: 'create', resource: 'configmaps' }, times: 2, answer: { error: 'TooManyRequests', retryAfterSeconds: 1 } });
    const created = await withRetries(() => configMaps.create({ metadata: { name: 'settings', namespace: 'default' }, data: { mode: 'fast' } }));
    log(`created ${created.result.metadata?.name} after ${created.tries} tries`);

    // A conflict on the first update.
    cluster.faults.add({ match: { verb: 'update', name: 'settings' }, times: 1, answer: { error: 'Conflict' } });
    const updated = await withRetries(async () => {
      const current = await configMaps.get('settings', { namespace: 'default' });
      return configMaps.update({ ...current, data: { mode: 'safe' } });
    });
    log(`updated to mode=${updated.result.data?.mode} after ${updated.tries} tries`);
    log(`codes the code under test saw: ${cluster.requests.entries.map((e) => e.code).join(' ')}`);

    // A watch that expires after its first event: the code lists again, as an informer does.
    cluster.faults.add({ match: { verb: 'watch', resource: 'configmaps' }, times: 1, answer: { watch: 'expire', afterEvents: 1 } });
    const watch = await configMaps.watch({ namespace: 'default' });
    for await (const event of watch) {
      if (event.type === 'ERROR') {
        const status = event.object as { code?: number; reason?: string };
        log(
          `watch ended with ${status.code} ${status.reason}; listing again finds ${(await configMaps.list({ namespace: 'default' })).items.length} ConfigMap(s)`,
        );
        break;
      }
    }
    watch.close();

    // The same kind of fault over HTTP: 429 with Retry-After, as kube-apiserver's flow control answers.
    cluster.faults.add({ match: { verb: 'list', resource: 'configmaps' }, times: 1, answer: { error: 'TooManyRequests', retryAfterSeconds: 3 } });
    const res = await fetch(`${server.url}/api/v1/namespaces/default/configmaps`, { headers: { authorization: `Bearer ${cluster.adminToken}` } });
    await res.arrayBuffer();
    log(`over HTTP: ${res.status}, Retry-After: ${res.headers.get('retry-after')}`);
  } finally {
    await server.close();
    await cluster.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
