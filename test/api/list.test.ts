import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../src/cluster.js';
import { ConfigMapKind, NamespaceKind } from '../../src/kinds/index.js';
import { statusOf, testCluster } from '../support/cluster.js';

let cluster: Cluster;
beforeEach(async () => {
  cluster = await testCluster();
  await cluster.client.resource(NamespaceKind).create({ metadata: { name: 'other' } });
  const cms = cluster.client.resource(ConfigMapKind);
  for (const n of ['c', 'a', 'b', 'e', 'd']) await cms.create({ metadata: { name: n, labels: { letter: n, vowel: String('ae'.includes(n)) } } });
  await cms.create({ metadata: { name: 'z' } }, { namespace: 'other' });
});
afterEach(async () => {
  await cluster.close();
});

const cms = () => cluster.client.resource(ConfigMapKind);

describe('list', () => {
  it('answers a <Kind>List in key order, items without apiVersion and kind as the real server', async () => {
    const list = await cms().list({ namespace: 'default' });
    expect(list.apiVersion).toBe('v1');
    expect(list.kind).toBe('ConfigMapList');
    expect(list.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(list.items.map((i) => i.metadata?.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(list.items[0]).not.toHaveProperty('kind');
    expect(list.items[0]).not.toHaveProperty('apiVersion');
  });

  it('lists across namespaces without a namespace', async () => {
    const all = await cms().list();
    expect(all.items.map((i) => `${i.metadata?.namespace}/${i.metadata?.name}`)).toEqual([
      'default/a',
      'default/b',
      'default/c',
      'default/d',
      'default/e',
      'other/z',
    ]);
  });

  it('pages with limit and continue, with remainingItemCount when unfiltered', async () => {
    const first = await cms().list({ namespace: 'default', limit: 2 });
    expect(first.items.map((i) => i.metadata?.name)).toEqual(['a', 'b']);
    expect(first.metadata.remainingItemCount).toBe(3);
    const second = await cms().list({ namespace: 'default', limit: 2, continue: first.metadata.continue });
    expect(second.items.map((i) => i.metadata?.name)).toEqual(['c', 'd']);
    const third = await cms().list({ namespace: 'default', limit: 2, continue: second.metadata.continue });
    expect(third.items.map((i) => i.metadata?.name)).toEqual(['e']);
    expect(third.metadata.continue).toBeUndefined();
    expect(third.metadata.remainingItemCount).toBeUndefined();
  });

  it('filters by label and field selectors', async () => {
    const vowels = await cms().list({ namespace: 'default', labelSelector: 'vowel=true' });
    expect(vowels.items.map((i) => i.metadata?.name)).toEqual(['a', 'e']);
    const notIn = await cms().list({ namespace: 'default', labelSelector: 'letter notin (a,b,c)' });
    expect(notIn.items.map((i) => i.metadata?.name)).toEqual(['d', 'e']);
    const byName = await cms().list({ fieldSelector: 'metadata.namespace=other' });
    expect(byName.items.map((i) => i.metadata?.name)).toEqual(['z']);
    const paged = await cms().list({ namespace: 'default', labelSelector: 'vowel=false', limit: 1 });
    expect(paged.items.map((i) => i.metadata?.name)).toEqual(['b']);
    expect(paged.metadata.remainingItemCount).toBeUndefined();
    expect(paged.metadata.continue).toBeDefined();
  });

  it('answers 400 for selectors that do not parse, unsupported fields, and bad continue tokens', async () => {
    const label = await statusOf(() => cms().list({ labelSelector: 'a in (b' }));
    expect(label).toMatchObject({ code: 400, reason: 'BadRequest' });
    const field = await statusOf(() => cms().list({ fieldSelector: 'data.x=1' }));
    expect(field).toMatchObject({ code: 400, message: '"data.x" is not a known field selector: only "metadata.name", "metadata.namespace"' });
    const token = await statusOf(() => cms().list({ continue: 'garbage!' }));
    expect(token.code).toBe(400);
  });
});
