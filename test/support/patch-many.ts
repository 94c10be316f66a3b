/** Many concurrent writes to one object, for the tests of watches that resume far back. */
import type { Cluster } from '../../src/cluster.js';
import { ConfigMapKind } from '../../src/kinds/index.js';

/**
 * Merge-patches one ConfigMap `count` times, 20 patches in flight (in-process); answers the
 * resourceVersions written, in order.
 */
export async function patchMany(cluster: Cluster, namespace: string, name: string, count: number): Promise<string[]> {
  const configMaps = cluster.client.resource(ConfigMapKind);
  const written: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      written.push(Number((await configMaps.patch(name, { data: { n: String(n) } }, { namespace, type: 'merge' })).metadata!.resourceVersion));
    }
  };
  await Promise.all(Array.from({ length: 20 }, worker));
  return written.sort((a, b) => a - b).map(String);
}
