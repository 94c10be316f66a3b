/**
 * `@kubernetes/client-node`, unmodified, against a memkube cluster in the same process with no
 * socket: create and list ConfigMaps, then follow them with an informer.
 * Run with `npx tsx examples/client-node-portless.ts`.
 */
import { CoreV1Api, KubeConfig, makeInformer } from '@kubernetes/client-node';
import { createCluster, portlessKubeConfig } from 'memkube';

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const cluster = await createCluster();
  try {
    const kc = portlessKubeConfig(new KubeConfig(), cluster);
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'first', labels: { app: 'demo' } } } });
    const listed = await core.listNamespacedConfigMap({ namespace: 'default', labelSelector: 'app=demo' });
    log(`listed ${listed.items.map((i) => i.metadata?.name).join(', ')} at resourceVersion ${listed.metadata?.resourceVersion}`);

    const informer = makeInformer(kc, '/api/v1/namespaces/default/configmaps', () => core.listNamespacedConfigMap({ namespace: 'default' }));
    const second = new Promise<string>((resolve) =>
      informer.on('add', (cm) => {
        if (cm.metadata?.name === 'second') resolve(cm.metadata.name);
      }),
    );
    await informer.start();
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'second' } } });
    log(`the informer saw ${await second} added`);
    await informer.stop();
    log(
      `informer cache: ${informer
        .list('default')
        .map((i) => i.metadata?.name)
        .sort()
        .join(', ')}`,
    );
  } finally {
    await cluster.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
