/** Test helpers: a cluster on a frozen clock, and a way to capture thrown ApiErrors. */
import { afterEach, beforeEach } from 'vitest';
import { createCluster, type Cluster, type ClusterOptions } from '../../src/cluster.js';
import type { Listening } from '../../src/http/listen.js';
import { ApiError, type Status } from '../../src/machinery/errors.js';

/** The instant every test cluster starts at. */
export const T0 = new Date('2026-01-01T00:00:00Z');

/** A cluster whose clock stands at {@link T0} until advanced. */
export function testCluster(options: ClusterOptions = {}): Promise<Cluster> {
  return createCluster({ clock: T0, ...options });
}

/** Runs `fn` and returns the Status of the ApiError it throws; fails if it does not throw one. */
export async function statusOf(fn: () => Promise<unknown>): Promise<Status> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof ApiError) return e.status;
    throw e;
  }
  throw new Error('expected an ApiError, but the call succeeded');
}

/**
 * A fresh test cluster for every test of the file (created before each, closed after each). The
 * returned object always stands for the current test's cluster.
 */
export function useTestCluster(options: ClusterOptions = {}): Cluster {
  let current: Cluster | undefined;
  beforeEach(async () => {
    current = await testCluster(options);
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return new Proxy({} as Cluster, {
    get(_target, prop) {
      if (!current) throw new Error('useTestCluster: the cluster exists only inside a test');
      const value = Reflect.get(current, prop, current) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(current) : value;
    },
  });
}

/**
 * A fresh test cluster served over HTTP on 127.0.0.1 and a free port for every test of the file
 * (both closed after each). `cluster` and `server` always stand for the current test's.
 */
export function useServedCluster(options: ClusterOptions = {}): { readonly cluster: Cluster; readonly server: Listening } {
  let current: { cluster: Cluster; server: Listening } | undefined;
  beforeEach(async () => {
    const cluster = await testCluster(options);
    current = { cluster, server: await cluster.listen({ port: 0 }) };
  });
  afterEach(async () => {
    await current?.server.close();
    await current?.cluster.close();
    current = undefined;
  });
  const now = () => {
    if (!current) throw new Error('useServedCluster: the cluster exists only inside a test');
    return current;
  };
  return {
    get cluster() {
      return now().cluster;
    },
    get server() {
      return now().server;
    },
  };
}
