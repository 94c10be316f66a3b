import { describe, expect, it } from 'vitest';
import { structuralOf, type StructuralNode } from '../../../src/schema/structural.js';
import { ConfigMap, Pod } from '../../../src/kinds/types/core-v1.js';
import { StatefulSet } from '../../../src/kinds/types/apps-v1.js';
import { listItemPathElement, listShape, pathString, toFieldSet } from '../../../src/patch/apply/index.js';

const pod = structuralOf(Pod());
const sts = structuralOf(StatefulSet());
const cm = structuralOf(ConfigMap());

function prop(node: StructuralNode, ...names: string[]): StructuralNode {
  let n = node;
  for (const name of names) {
    if (n.type === 'array') n = n.items;
    if (n.type !== 'object') throw new Error(`not a struct at ${name}`);
    n = n.properties.get(name)!;
  }
  return n;
}

describe('list types, as SMD derives them', () => {
  it('reads x-kubernetes-list-type and list-map-keys', () => {
    expect(listShape(prop(pod, 'spec', 'containers'))).toEqual({ atomic: false, keys: ['name'] });
    expect(listShape(prop(pod, 'spec', 'containers', 'ports'))).toEqual({ atomic: false, keys: ['containerPort', 'protocol'] });
    expect(listShape(prop(pod, 'spec', 'tolerations'))).toEqual({ atomic: true, keys: [] });
    expect(listShape(prop(pod, 'spec', 'containers', 'args'))).toEqual({ atomic: true, keys: [] });
    expect(listShape(prop(pod, 'metadata', 'finalizers'))).toEqual({ atomic: false, keys: [] });
  });

  it('falls back on the patch strategy when there is no list type', () => {
    const items: StructuralNode = { type: 'string' };
    expect(listShape({ type: 'array', items, patchStrategy: 'merge', patchMergeKey: 'name' })).toEqual({ atomic: false, keys: ['name'] });
    expect(listShape({ type: 'array', items, patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' })).toEqual({ atomic: false, keys: ['name'] });
    expect(listShape({ type: 'array', items, patchStrategy: 'merge' })).toEqual({ atomic: false, keys: [] });
    expect(listShape({ type: 'array', items, patchStrategy: 'retainKeys' })).toEqual({ atomic: true, keys: [] });
    expect(listShape({ type: 'array', items })).toEqual({ atomic: true, keys: [] });
    expect(listShape({ type: 'array', items, listType: 'atomic', patchStrategy: 'merge', patchMergeKey: 'name' })).toEqual({ atomic: true, keys: [] });
  });
});

describe('toFieldSet', () => {
  it('lists a ConfigMap: data keys are members, data itself is not', () => {
    const set = toFieldSet({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { a: 'b' } }, data: { key: 'v' } }, cm);
    expect(set.paths().map(pathString)).toEqual(['.apiVersion', '.kind', '.data.key', '.metadata.name', '.metadata.labels.a']);
  });

  it('walks a Pod: map lists by key (with defaulted key fields), sets by value, atomic lists and maps as leaves', () => {
    const set = toFieldSet(
      {
        metadata: { finalizers: ['x/y'], labels: {} },
        spec: {
          containers: [{ name: 'c', image: 'nginx', args: ['a', 'b'], ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }], resources: {} }],
          tolerations: [{ key: 'k', operator: 'Exists' }],
          nodeSelector: { disk: 'ssd' },
          affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } },
          securityContext: null,
        },
      },
      pod,
    );
    expect(set.toFieldsV1()).toEqual({
      'f:metadata': { 'f:finalizers': { 'v:"x/y"': {} }, 'f:labels': {} },
      'f:spec': {
        'f:affinity': { 'f:nodeAffinity': { 'f:requiredDuringSchedulingIgnoredDuringExecution': {} } },
        'f:containers': {
          'k:{"name":"c"}': {
            '.': {},
            'f:args': {},
            'f:env': { 'k:{"name":"A"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
            'f:image': {},
            'f:name': {},
            'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
            'f:resources': {},
          },
        },
        'f:nodeSelector': {}, // x-kubernetes-map-type: atomic
        'f:securityContext': {},
        'f:tolerations': {},
      },
    });
  });

  it('makes a repeated list item a member without walking it', () => {
    const set = toFieldSet({ metadata: { finalizers: ['a', 'b', 'a'] }, spec: { containers: [{ name: 'c', image: 'x' }, { name: 'c' }] } }, pod);
    expect(set.toFieldsV1()).toEqual({
      'f:metadata': { 'f:finalizers': { 'v:"a"': {}, 'v:"b"': {} } },
      'f:spec': { 'f:containers': { 'k:{"name":"c"}': {} } },
    });
  });

  it('contributes nothing for an empty granular list under a struct', () => {
    expect(toFieldSet({ spec: { containers: [] } }, pod).empty).toBe(true);
  });

  it('walks a StatefulSet: atomic selector, volumeClaimTemplates atomic, template granular', () => {
    const set = toFieldSet(
      {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'web' },
        spec: {
          replicas: 3,
          serviceName: 'web',
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'w', image: 'nginx', volumeMounts: [{ name: 'data', mountPath: '/d' }] }] },
          },
          volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }],
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
        },
      },
      sts,
    );
    expect(set.toFieldsV1()).toEqual({
      'f:apiVersion': {},
      'f:kind': {},
      'f:metadata': { 'f:name': {} },
      'f:spec': {
        'f:replicas': {},
        'f:selector': {},
        'f:serviceName': {},
        'f:template': {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:containers': {
              'k:{"name":"w"}': {
                '.': {},
                'f:image': {},
                'f:name': {},
                'f:volumeMounts': { 'k:{"mountPath":"/d"}': { '.': {}, 'f:mountPath': {}, 'f:name': {} } },
              },
            },
          },
        },
        'f:updateStrategy': { 'f:rollingUpdate': { 'f:partition': {} }, 'f:type': {} },
        'f:volumeClaimTemplates': {},
      },
    });
  });

  it('explains why a list item has no key, as SMD does', () => {
    const ports = prop(pod, 'spec', 'containers', 'ports');
    const containers = prop(pod, 'spec', 'containers');
    const finalizers = prop(pod, 'metadata', 'finalizers');
    const atom = (n: StructuralNode) => ({ ...listShape(n), elem: (n as { items: StructuralNode }).items, keyDefaults: new Map() });
    expect(() => listItemPathElement(atom(containers), { image: 'x' })).toThrow(
      'associative list with keys has an element that omits all key fields ["name"] (and doesn\'t have default values for any key fields)',
    );
    expect(() => listItemPathElement(atom(containers), null)).toThrow('associative list with keys may not have a null element');
    expect(() => listItemPathElement(atom(containers), 'x')).toThrow('associative list with keys may not have non-map elements');
    expect(() => listItemPathElement(atom(finalizers), { a: 1 })).toThrow("associative list without keys has an element that's a map type");
    expect(() => listItemPathElement(atom(finalizers), null)).toThrow("associative list without keys has an element that's an explicit null");
    expect(() => listItemPathElement(atom(ports), { containerPort: 1, protocol: 'UDP' })).not.toThrow();
  });

  it('keeps hostile keys as data', () => {
    const labels = JSON.parse('{"__proto__":"x","constructor":"y"}') as Record<string, string>;
    const set = toFieldSet({ metadata: { labels } }, cm);
    expect(set.paths().map(pathString)).toEqual(['.metadata.labels.__proto__', '.metadata.labels.constructor']);
  });
});
