/** What the rbac tests share: checking a 422 against its exact causes, and reading a Table. */
import { expect } from 'vitest';
import type { Cluster } from '../../../src/cluster.js';
import { statusOf } from '../../support/cluster.js';

/** Runs `write`, expects a 422 for `what` (`Role.rbac.authorization.k8s.io "x"`) with exactly `causes` ([field, body]). */
export async function expectInvalid(write: () => Promise<unknown>, what: string, ...causes: [string, string][]): Promise<void> {
  const s = await statusOf(write);
  const lines = [...new Set(causes.map(([f, m]) => `${f}: ${m}`))];
  const body = lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`;
  expect(s).toMatchObject({ code: 422, reason: 'Invalid', message: `${what} is invalid: ${body}` });
  expect(s.details?.causes?.map((c) => [c.field, c.message])).toEqual(causes);
}

/** The Table `kubectl get` reads for `path`. */
export async function table(
  cluster: Cluster,
  path: string,
): Promise<{ columnDefinitions: { name: string; type: string; priority: number; format: string }[]; rows: { cells: unknown[] }[] }> {
  const res = await cluster.fetch(new Request(`http://memkube${path}`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }));
  expect(res.status).toBe(200);
  return (await res.json()) as never;
}

/** The message of a path-segment name rule (`IsValidPathSegmentName`). */
export const SLASH = "may not contain '/'";
