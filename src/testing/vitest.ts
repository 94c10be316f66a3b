/**
 * `memkube/vitest`: a fresh cluster for every test, closed after it, for vitest (or any runner with
 * `beforeEach`/`afterEach`). Nothing here imports vitest: the fixture is a plain function that
 * vitest's `test.extend` takes, and the hooks variant takes the runner's hooks as arguments, so
 * memkube never pins a vitest version and installs nothing for projects that test with something else.
 *
 * @module memkube/vitest
 */
import { createCluster, type Cluster, type ClusterOptions } from '../cluster.js';

/**
 * The fixtures {@link clusterFixture} adds to a test's context.
 * @category Testing
 */
export interface ClusterFixtures {
  /** The test's own cluster, created before the test and closed after it. */
  cluster: Cluster;
}

/**
 * A vitest fixture function: set up a value, hand it to the test with `use`, then clean up.
 * @category Testing
 */
export type FixtureFunction<T> = (context: object, use: (value: T) => Promise<void>) => Promise<void>;

/**
 * The fixtures for `test.extend`: every test that names `cluster` in its context gets a new
 * cluster made with `options`, closed when the test ends (passed or failed).
 *
 * @example
 * ```ts
 * import { test } from 'vitest';
 * import { clusterFixture } from 'memkube/vitest';
 *
 * const it = test.extend(clusterFixture());
 * it('creates a ConfigMap', async ({ cluster }) => {
 *   await cluster.client.configMaps('default').create({ metadata: { name: 'app' } });
 * });
 * ```
 * @category Testing
 */
export function clusterFixture(options: ClusterOptions = {}): { cluster: FixtureFunction<Cluster> } {
  return {
    // vitest reads a fixture's first parameter to learn which other fixtures it needs; it must be
    // an object pattern, and an empty one says "none".
    // eslint-disable-next-line no-empty-pattern
    cluster: async ({}, use) => {
      const cluster = await createCluster(options);
      try {
        await use(cluster);
      } finally {
        await cluster.close();
      }
    },
  };
}

/**
 * The hooks {@link useCluster} registers with: vitest's (or jest's, mocha's) `beforeEach` and `afterEach`.
 * @category Testing
 */
export interface TestHooks {
  /** Registers `fn` to run before each test. */
  beforeEach(fn: () => Promise<void>): unknown;
  /** Registers `fn` to run after each test. */
  afterEach(fn: () => Promise<void>): unknown;
}

/**
 * Registers hooks that give every test of the file (or `describe` block) a new cluster made with
 * `options`, closed after the test. The returned object always stands for the running test's
 * cluster; using it outside a test throws.
 *
 * @example
 * ```ts
 * import { afterEach, beforeEach, it } from 'vitest';
 * import { useCluster } from 'memkube/vitest';
 *
 * const cluster = useCluster({ beforeEach, afterEach });
 * it('starts with the default namespace', async () => {
 *   await cluster.client.namespaces().get('default');
 * });
 * ```
 * @category Testing
 */
export function useCluster(hooks: TestHooks, options: ClusterOptions = {}): Cluster {
  let current: Cluster | undefined;
  hooks.beforeEach(async () => {
    current = await createCluster(options);
  });
  hooks.afterEach(async () => {
    const closing = current;
    current = undefined;
    await closing?.close();
  });
  return new Proxy({} as Cluster, {
    get(_target, prop) {
      if (!current) throw new Error(`useCluster: the cluster exists only while a test runs (read "${String(prop)}" outside one)`);
      const value = Reflect.get(current, prop, current) as unknown;
      // Methods keep their cluster as `this` when taken off the proxy (`const { settle } = cluster`).
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
    },
  });
}
