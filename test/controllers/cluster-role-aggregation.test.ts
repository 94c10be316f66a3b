import { describe, expect, it } from 'vitest';
import { ClusterRoleKind, type ClusterRole } from '../../src/kinds/index.js';
import { useTestCluster } from '../support/cluster.js';

const cluster = useTestCluster();
const roles = () => cluster.client.resource(ClusterRoleKind);

const LABEL = 'example.com/aggregate-to-monitoring';
const aggregate = (
  name = 'monitoring',
  selectors: NonNullable<ClusterRole['aggregationRule']>['clusterRoleSelectors'] = [{ matchLabels: { [LABEL]: 'true' } }],
) => roles().create({ metadata: { name }, aggregationRule: { clusterRoleSelectors: selectors } });
const part = (name: string, rules: ClusterRole['rules'], labels: Record<string, string> = { [LABEL]: 'true' }) =>
  roles().create({ metadata: { name, labels }, rules });

const rule = (resource: string, verbs = ['get']) => ({ apiGroups: [''], resources: [resource], verbs });

describe('cluster-role aggregation', () => {
  it('fills an aggregated role with the rules of the roles its selectors match, in name order', async () => {
    await part('b-part', [rule('secrets')]);
    await part('a-part', [rule('configmaps'), rule('pods')]);
    await part('unlabelled', [rule('nodes')], {});
    await aggregate();
    await cluster.settle();
    expect((await roles().get('monitoring')).rules).toEqual([rule('configmaps'), rule('pods'), rule('secrets')]);
  });

  it('follows changes: a new labelled role, changed rules, a removed label, a deleted role', async () => {
    await aggregate();
    await part('a', [rule('pods')]);
    await cluster.settle();
    expect((await roles().get('monitoring')).rules).toEqual([rule('pods')]);

    const b = await part('b', [rule('secrets')]);
    await cluster.settle();
    expect((await roles().get('monitoring')).rules).toEqual([rule('pods'), rule('secrets')]);

    await roles().update({ ...b, rules: [rule('secrets', ['list'])] });
    await cluster.settle();
    expect((await roles().get('monitoring')).rules).toEqual([rule('pods'), rule('secrets', ['list'])]);

    await roles().patch('a', { metadata: { labels: { [LABEL]: null } } }, { type: 'merge' });
    await cluster.settle();
    expect((await roles().get('monitoring')).rules).toEqual([rule('secrets', ['list'])]);

    await roles().delete('b');
    await cluster.settle();
    expect((await roles().get('monitoring')).rules).toBeUndefined();
  });

  it('skips a rule another matched role already brought, and the aggregated role itself', async () => {
    await part('a', [rule('pods'), rule('pods')]);
    await part('b', [{ ...rule('pods'), resourceNames: [] }]);
    await aggregate('monitoring', [{ matchLabels: { [LABEL]: 'true' } }, {}]);
    await cluster.settle();
    const rules = (await roles().get('monitoring')).rules ?? [];
    expect(rules.filter((r) => JSON.stringify(r) === JSON.stringify(rule('pods')))).toHaveLength(1);
    expect(new Set(rules.map((r) => JSON.stringify(r))).size).toBe(rules.length);
    // The empty selector matches every other ClusterRole, the bootstrap ones too.
    expect(rules).toContainEqual({ apiGroups: ['*'], resources: ['*'], verbs: ['*'] });
  });

  it('chains aggregations: a role aggregated into another passes its aggregated rules on', async () => {
    await aggregate('outer', [{ matchLabels: { tier: 'inner' } }]);
    await roles().create({
      metadata: { name: 'inner', labels: { tier: 'inner' } },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [LABEL]: 'true' } }] },
    });
    await part('leaf', [rule('events')]);
    await cluster.settle();
    expect((await roles().get('outer')).rules).toEqual([rule('events')]);
  });

  it('writes the rules with server-side apply as clusterrole-aggregation-controller, taking over rules a user set', async () => {
    await roles().create({
      metadata: { name: 'monitoring' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [LABEL]: 'true' } }] },
      rules: [rule('nodes')],
    });
    await part('a', [rule('pods')]);
    await cluster.settle();
    const m = await roles().get('monitoring');
    expect(m.rules).toEqual([rule('pods')]);
    const managers = (m.metadata?.managedFields ?? []) as { manager: string; operation: string; fieldsV1: unknown }[];
    expect(managers.find((e) => e.manager === 'clusterrole-aggregation-controller')).toMatchObject({ operation: 'Apply', fieldsV1: { 'f:rules': {} } });
  });

  it('puts back aggregated rules a user overwrites', async () => {
    await aggregate();
    await part('a', [rule('pods')]);
    await cluster.settle();
    const m = await roles().get('monitoring');
    await roles().update({ ...m, rules: [rule('nodes', ['delete'])] });
    await cluster.settle();
    expect((await roles().get('monitoring')).rules).toEqual([rule('pods')]);
  });

  it('leaves a ClusterRole without an aggregation rule alone', async () => {
    await part('a', [rule('pods')]);
    await roles().create({ metadata: { name: 'plain' }, rules: [rule('nodes')] });
    await cluster.settle();
    expect((await roles().get('plain')).rules).toEqual([rule('nodes')]);
  });
});
