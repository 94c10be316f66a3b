/** Test helpers: a cluster on a frozen clock, and a way to capture thrown ApiErrors. */
import { createCluster, type Cluster, type ClusterOptions } from '../../src/cluster.js';
import { ApiError, type Status } from '../../src/api/errors.js';

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
