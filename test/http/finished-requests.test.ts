/**
 * The batch an HTTP door keeps its finished requests in until they are recorded: nothing recorded
 * before the batch fills or is drained, everything in order and exactly once after.
 */
import { describe, expect, it } from 'vitest';
import { FINISHED_REQUESTS_BATCH, FinishedRequests, type FinishedRequest } from '../../src/http/finished-requests.js';
import type { ResourceRoute } from '../../src/http/routes.js';

const route = (name: string): ResourceRoute => ({ group: '', version: 'v1', resource: 'configmaps', namespace: 'default', name, legacyWatch: false });

describe('FinishedRequests', () => {
  it('records nothing until drained, then every request in the order they finished', () => {
    const recorded: FinishedRequest[] = [];
    const batch = new FinishedRequests((r) => recorded.push(r));
    batch.add(route('a'), 'GET', '', undefined, 200, 0.001, 120);
    batch.add(route('b'), 'PATCH', '?dryRun=All', 'application/apply-patch+yaml', 201, 0.25, undefined);
    expect(recorded).toEqual([]);
    expect(batch.pending).toBe(2);
    batch.drain();
    expect(recorded).toEqual([
      { route: route('a'), method: 'GET', search: '', contentType: undefined, status: 200, seconds: 0.001, bytes: 120 },
      { route: route('b'), method: 'PATCH', search: '?dryRun=All', contentType: 'application/apply-patch+yaml', status: 201, seconds: 0.25, bytes: undefined },
    ]);
    batch.drain();
    expect(recorded).toHaveLength(2);
  });

  it('records a full batch as its last request is added, and the rest at the next drain', () => {
    const names: string[] = [];
    const batch = new FinishedRequests((r) => names.push(r.route.name!));
    for (let i = 0; i < FINISHED_REQUESTS_BATCH + 3; i++) {
      batch.add(route(`cm-${i}`), 'GET', '', undefined, 200, 0, 0);
      if (i === FINISHED_REQUESTS_BATCH - 2) expect(names).toHaveLength(0);
      if (i === FINISHED_REQUESTS_BATCH - 1) expect(names).toHaveLength(FINISHED_REQUESTS_BATCH);
    }
    expect(batch.pending).toBe(3);
    batch.drain();
    expect(names).toEqual(Array.from({ length: FINISHED_REQUESTS_BATCH + 3 }, (_, i) => `cm-${i}`));
  });

  it('keeps a status and a size of zero, and an answer of unknown size apart from one of no bytes', () => {
    const recorded: FinishedRequest[] = [];
    const batch = new FinishedRequests((r) => recorded.push(r));
    batch.add(route('z'), 'DELETE', '', undefined, 0, 0, 0);
    batch.add(route('s'), 'GET', '', undefined, 599, 1e-9, undefined);
    batch.drain();
    expect(recorded.map((r) => [r.status, r.seconds, r.bytes])).toEqual([
      [0, 0, 0],
      [599, 1e-9, undefined],
    ]);
  });

  it('does not record a batch twice when recording throws part way', () => {
    let calls = 0;
    const batch = new FinishedRequests(() => {
      calls++;
      if (calls === 1) throw new Error('boom');
    });
    batch.add(route('a'), 'GET', '', undefined, 200, 0, 0);
    batch.add(route('b'), 'GET', '', undefined, 200, 0, 0);
    expect(() => batch.drain()).toThrow('boom');
    expect(batch.pending).toBe(0);
    batch.drain();
    expect(calls).toBe(1);
  });
});
