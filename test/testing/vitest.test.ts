import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Cluster } from '../../src/cluster.js';
import { clusterFixture, useCluster } from '../../src/testing/vitest.js';
import { T0 } from '../support/cluster.js';

describe('clusterFixture with test.extend', () => {
  const it = test.extend(clusterFixture({ clock: T0 }));
  let first: Cluster | undefined;

  it('gives a test a cluster made with the options', async ({ cluster }) => {
    first = cluster;
    expect(cluster.clock.now()).toBe(T0.getTime());
    await cluster.client.configMaps('default').create({ metadata: { name: 'mine' } });
  });

  it('gives the next test a fresh one and closes the last', async ({ cluster }) => {
    expect(cluster).not.toBe(first);
    expect((await cluster.client.configMaps('default').list({ fieldSelector: 'metadata.name=mine' })).items).toEqual([]);
    await expect(first!.client.configMaps('default').get('mine')).rejects.toMatchObject({ code: 503 });
  });
});

describe('useCluster with the runner hooks', () => {
  const cluster = useCluster({ beforeEach, afterEach }, { clock: T0 });
  let first: Cluster['client'] | undefined;

  test('stands for the running test cluster', async () => {
    first = cluster.client;
    await cluster.client.namespaces().create({ metadata: { name: 'only-here' } });
    expect(cluster.clock.now()).toBe(T0.getTime());
  });

  test('is a fresh cluster in the next test, and the last one is closed', async () => {
    await expect(cluster.client.namespaces().get('only-here')).rejects.toMatchObject({ code: 404 });
    await expect(first!.namespaces().get('default')).rejects.toMatchObject({ code: 503 });
    // Methods taken off the proxy keep their cluster.
    const { settle } = cluster;
    await settle();
  });
});

test('useCluster outside a test says so', () => {
  const hooks: Array<() => Promise<void>> = [];
  const cluster = useCluster({ beforeEach: (fn) => hooks.push(fn), afterEach: (fn) => hooks.push(fn) });
  expect(hooks).toHaveLength(2);
  expect(() => cluster.client).toThrow('useCluster: the cluster exists only while a test runs (read "client" outside one)');
});
