/**
 * `apiserver_storage_objects` and `apiserver_resource_objects`: how many objects each stored
 * resource holds, read from the storage when the metrics are read (upstream refreshes them from
 * its storage's stats; -1 when the count fails, as upstream reports a fetching error).
 */
import type { MetricsRegistry } from '../../metrics/registry.js';
import type { KindRegistry } from '../../schema/registry.js';
import type { Storage } from '../../storage/storage.js';

/** `GroupResource.String()`: `configmaps`, `deployments.apps`. */
function groupResource(group: string, resource: string): string {
  return group ? `${resource}.${group}` : resource;
}

/** Declares the object count gauges and sets them from `storage` at every read of `registry`. */
export function countStoredObjects(registry: MetricsRegistry, kinds: KindRegistry, storage: Storage): void {
  if (!registry.enabled) return;
  const legacy = registry.gauge<'resource'>({
    name: 'apiserver_storage_objects',
    help: '[DEPRECATED, consider using apiserver_resource_objects instead] Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
    stability: 'STABLE',
    labelNames: ['resource'],
  });
  const current = registry.gauge<'group' | 'resource'>({
    name: 'apiserver_resource_objects',
    help: 'Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
    labelNames: ['group', 'resource'],
  });
  registry.onCollect(async () => {
    // Resources that went away (a deleted custom resource) drop out.
    legacy.reset();
    current.reset();
    const seen = new Set<string>();
    for (const kind of kinds.kinds()) {
      const d = kind.definition;
      // Virtual kinds (reviews, computed lists) and doors onto another kind's storage have no objects of their own.
      if (d.review || d.computedObjects || d.sharesStorageWith || seen.has(kind.bucket)) continue;
      seen.add(kind.bucket);
      const count = await storedCount(storage, kind.bucket);
      legacy.set({ resource: groupResource(kind.group, d.plural) }, count);
      current.set({ group: kind.group, resource: d.plural }, count);
    }
  });
}

/** The objects in a bucket, from a one-item page and its remaining count: O(log n), not a scan. */
async function storedCount(storage: Storage, bucket: string): Promise<number> {
  try {
    const page = await storage.list(bucket, { limit: 1 });
    return page.items.length + (page.more ? (page.remaining ?? 0) : 0);
  } catch {
    return -1;
  }
}
