/**
 * The generated stored forms of the built-in objects (src/kinds/bootstrap-objects.generated.ts)
 * are what the engine makes today: a cluster copies them instead of making its built-in objects,
 * so a stale file would start clusters with outdated objects. `npm run gen:bootstrap` renews it.
 */
import { describe, expect, it } from 'vitest';
import { builtinTemplatesFor, createCluster, forgetBuiltinTemplates } from '../../src/cluster.js';
import { DEFAULT_BOOTSTRAP_OBJECTS } from '../../src/kinds/bootstrap-objects.generated.js';
import { ClusterRoleKind, FlowSchemaKind } from '../../src/kinds/index.js';
import { T0 } from '../support/cluster.js';

describe('the built-in objects a cluster starts with', () => {
  it('a cluster with default options copies the generated objects, each with its own uid and the cluster time', async () => {
    const a = await createCluster({ clock: T0 });
    const b = await createCluster({ clock: new Date(T0.getTime() + 60_000) });
    const [ra, rb] = [await a.client.resource(ClusterRoleKind).get('admin'), await b.client.resource(ClusterRoleKind).get('admin')];
    expect(ra.metadata?.uid).not.toBe(rb.metadata?.uid);
    expect([ra.metadata?.creationTimestamp, rb.metadata?.creationTimestamp]).toEqual(['2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z']);
    expect(ra.rules).toEqual(rb.rules);
    expect((ra.rules ?? []).length).toBeGreaterThan(10);
    const flow = (await b.client.resource(FlowSchemaKind).get('exempt')).status?.conditions?.[0];
    expect(flow).toMatchObject({ type: 'Dangling', status: 'False', lastTransitionTime: '2026-01-01T00:01:00Z' });
    await a.close();
    await b.close();
  });

  it('the generated objects are the ones the engine makes now (else run npm run gen:bootstrap)', async () => {
    forgetBuiltinTemplates();
    // As the generator makes them: on a clock that stands still (see scripts/generate-bootstrap-objects.ts).
    const cluster = await createCluster({ clock: T0 });
    const made = builtinTemplatesFor();
    await cluster.close();
    expect(made).toEqual(DEFAULT_BOOTSTRAP_OBJECTS);
  });
});
