import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import { coordinationKinds } from '../../src/kinds/coordination/index.js';
import { defineKind } from '../../src/schema/define-kind.js';
import { compareKubeVersions, sortVersions } from '../../src/schema/version-priority.js';
import { ObjectMetaSchema } from '../../src/index.js';
import { useTestCluster } from '../support/cluster.js';

describe('version priority', () => {
  it('orders the example of the API reference exactly', () => {
    const expected = ['v10', 'v2', 'v1', 'v11beta2', 'v10beta3', 'v3beta1', 'v12alpha1', 'v11alpha2', 'foo1', 'foo10'];
    expect(sortVersions([...expected].reverse())).toEqual(expected);
    expect(sortVersions(['foo10', 'v1', 'v11alpha2', 'foo1', 'v3beta1', 'v2', 'v12alpha1', 'v10', 'v10beta3', 'v11beta2'])).toEqual(expected);
  });

  it('follows Kubernetes: positive when the first ranks higher', () => {
    expect(compareKubeVersions('v2', 'v1')).toBeGreaterThan(0);
    expect(compareKubeVersions('v1beta1', 'v1')).toBeLessThan(0);
    expect(compareKubeVersions('foo', 'v1alpha1')).toBeLessThan(0);
    expect(compareKubeVersions('a', 'b')).toBeGreaterThan(0);
    expect(compareKubeVersions('v1', 'v1')).toBe(0);
  });

  const version = fc.oneof(
    fc
      .tuple(fc.integer({ min: 0, max: 30 }), fc.constantFrom('', 'alpha', 'beta'), fc.integer({ min: 0, max: 30 }))
      .map(([a, t, b]) => (t ? `v${a}${t}${b}` : `v${a}`)),
    fc.string({ maxLength: 6 }),
  );

  it('is antisymmetric and sorts into an order that respects the comparison', () => {
    fc.assert(fc.property(version, version, (a, b) => Math.sign(compareKubeVersions(a, b)) === -Math.sign(compareKubeVersions(b, a))));
    fc.assert(
      fc.property(fc.array(version, { maxLength: 12 }), (vs) => {
        const sorted = sortVersions(vs);
        expect([...sorted].sort()).toEqual([...vs].sort());
        for (let i = 1; i < sorted.length; i++) expect(compareKubeVersions(sorted[i - 1]!, sorted[i]!)).toBeGreaterThanOrEqual(0);
        expect(sortVersions([...vs].reverse())).toEqual(sorted);
      }),
    );
  });

  it('puts every kube-like version before every other string', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 99 }),
        fc.string().filter((s) => !/^v\d+((alpha|beta)\d+)?$/.test(s)),
        (n, other) => compareKubeVersions(`v${n}alpha1`, other) > 0,
      ),
    );
  });
});

describe("discovery orders a group's versions by priority", () => {
  const Thing = z.object({ apiVersion: z.string().optional(), kind: z.string().optional(), metadata: ObjectMetaSchema.optional() });
  const ThingKind = defineKind({
    group: 'things.{api_domain}',
    kind: 'Thing',
    plural: 'things',
    scope: 'Namespaced',
    versions: ['v1alpha1', 'foo', 'v2beta1', 'v1', 'v10beta3'].map((name) => ({ name, schema: Thing, served: true, storage: name === 'v1' })),
  });
  const cluster = useTestCluster({ kinds: [ThingKind, ...coordinationKinds] });
  const get = async (path: string) => (await (await cluster.fetch(new Request(`http://memkube.test${path}`))).json()) as Record<string, unknown>;

  it('lists versions highest first; the preferred version is the first', async () => {
    expect(await get('/apis/things.k8s.io')).toMatchObject({
      versions: ['v1', 'v10beta3', 'v2beta1', 'v1alpha1', 'foo'].map((version) => ({ groupVersion: `things.k8s.io/${version}`, version })),
      preferredVersion: { groupVersion: 'things.k8s.io/v1', version: 'v1' },
    });
    expect(await get('/apis/coordination.k8s.io')).toMatchObject({
      versions: [{ version: 'v1' }, { version: 'v1beta1' }, { version: 'v1alpha2' }],
      preferredVersion: { version: 'v1' },
    });
  });
});
