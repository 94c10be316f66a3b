/**
 * The label index of MemoryStorage: a list given the labels its filter requires skips objects by
 * the index, and must answer exactly what the filter alone answers — after creates, relabelling
 * updates and deletes, in pages, and at past revisions (where the index, which holds the current
 * state, must not be trusted).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../src/storage/memory.js';
import type { LabelPair, StoredValue } from '../../src/storage/storage.js';

const BUCKET = 'core/configmaps';
const key = (name: string) => ({ bucket: BUCKET, namespace: 'ns', name });
const obj = (name: string, labels?: Record<string, string>) => ({ metadata: { name, namespace: 'ns', ...(labels ? { labels } : {}) } });
const hasAll = (pairs: readonly LabelPair[]) => (value: StoredValue) => {
  const labels = (value.metadata as { labels?: Record<string, string> }).labels ?? {};
  return pairs.every((p) => labels[p.key] === p.value);
};
const names = (items: readonly { name: string }[]) => items.map((i) => i.name);

type Op = { kind: 'put'; name: string; labels: Record<string, string> | undefined } | { kind: 'delete'; name: string };

const labelSet = fc.option(fc.dictionary(fc.constantFrom('tier', 'app', 'zone'), fc.constantFrom('a', 'b'), { maxKeys: 3 }), { nil: undefined });
const ops = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('put' as const), name: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), labels: labelSet }),
    fc.record({ kind: fc.constant('delete' as const), name: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f') }),
  ),
  { maxLength: 40 },
);
const wanted = fc.array(fc.record({ key: fc.constantFrom('tier', 'app', 'zone'), value: fc.constantFrom('a', 'b') }), { minLength: 1, maxLength: 2 });

async function run(s: MemoryStorage, list: readonly Op[]): Promise<number[]> {
  const revisions: number[] = [];
  for (const op of list) {
    const current = await s.get(key(op.name));
    if (op.kind === 'delete') {
      if (current) revisions.push((await s.delete(key(op.name), current.revision)).revision);
    } else if (current) {
      revisions.push((await s.update(key(op.name), obj(op.name, op.labels), current.revision)).revision);
    } else {
      revisions.push((await s.create(key(op.name), obj(op.name, op.labels))).revision);
    }
  }
  return revisions;
}

describe('MemoryStorage label index', () => {
  it('answers with the hint exactly what the filter alone answers, now and at past revisions, in pages', async () => {
    await fc.assert(
      fc.asyncProperty(ops, wanted, fc.integer({ min: 1, max: 4 }), async (list, pairs, limit) => {
        const s = new MemoryStorage({ historyRetentionMs: 60_000 });
        const revisions = await run(s, list);
        const filter = hasAll(pairs);
        for (const revision of [undefined, ...revisions]) {
          const plain = await s.list(BUCKET, { revision, filter });
          const hinted = await s.list(BUCKET, { revision, filter, labels: pairs });
          expect(names(hinted.items)).toEqual(names(plain.items));
          // Page by page too: the hint must not change where a page ends.
          let after: string | undefined;
          const paged: string[] = [];
          for (;;) {
            const page = await s.list(BUCKET, { revision, filter, labels: pairs, limit, after });
            paged.push(...names(page.items));
            if (!page.more) break;
            const last = page.items[page.items.length - 1]!;
            after = `${last.namespace}/${last.name}`;
          }
          expect(paged).toEqual(names(plain.items));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('follows relabelling and deletion of the current objects', async () => {
    const s = new MemoryStorage();
    const a = await s.create(key('a'), obj('a', { tier: 'web' }));
    await s.create(key('b'), obj('b', { tier: 'db' }));
    const tierWeb = { filter: hasAll([{ key: 'tier', value: 'web' }]), labels: [{ key: 'tier', value: 'web' }] };
    expect(names((await s.list(BUCKET, tierWeb)).items)).toEqual(['a']);
    const moved = await s.update(key('a'), obj('a', { tier: 'db' }), a.revision);
    expect(names((await s.list(BUCKET, tierWeb)).items)).toEqual([]);
    // The past still sees the old labels: the index is not used for keys changed since.
    expect(names((await s.list(BUCKET, { ...tierWeb, revision: a.revision })).items)).toEqual(['a']);
    await s.update(key('a'), obj('a', { tier: 'web' }), moved.revision);
    expect(names((await s.list(BUCKET, tierWeb)).items)).toEqual(['a']);
    const current = await s.get(key('a'));
    await s.delete(key('a'), current!.revision);
    expect(names((await s.list(BUCKET, tierWeb)).items)).toEqual([]);
  });
});
