// Paths as CustomResourceDefinitions write them in additionalPrinterColumns and selectableFields:
// Kubernetes parses `{` + jsonPath + `}` and evaluates with missing keys allowed.
import { describe, expect, it } from 'vitest';
import { parseJsonPath, printJsonPathValue, type JsonPathValue } from '../../../src/util/jsonpath/index.js';

const widget = {
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w1', namespace: 'default', creationTimestamp: '2026-07-01T10:00:00Z', labels: { 'app.kubernetes.io/name': 'widget' } },
  spec: {
    replicas: 3,
    ratio: 0.75,
    paused: false,
    containers: [
      { name: 'main', image: 'nginx:1.27' },
      { name: 'sidecar', image: 'envoy:1.30' },
    ],
  },
  status: {
    conditions: [
      { type: 'Available', status: 'False' },
      { type: 'Ready', status: 'True', lastTransitionTime: '2026-07-01T10:01:00Z' },
    ],
    observed: null,
  },
};

function column(jsonPath: string, data: unknown = widget): JsonPathValue[][] {
  return parseJsonPath(`{${jsonPath}}`, 'column').findResults(data, { allowMissingKeys: true });
}

describe('printer column paths', () => {
  it('find one value each', () => {
    expect(column('.spec.replicas')).toEqual([[3]]);
    expect(column('.spec.ratio')).toEqual([[0.75]]);
    expect(column('.spec.paused')).toEqual([[false]]);
    expect(column('.metadata.creationTimestamp')).toEqual([['2026-07-01T10:00:00Z']]);
    expect(column('.status.conditions[?(@.type=="Ready")].status')).toEqual([['True']]);
    expect(column('.metadata.labels.app\\.kubernetes\\.io/name')).toEqual([['widget']]);
  });

  it('find several values for a wildcard, printed with spaces', () => {
    expect(column('.spec.containers[*].image')).toEqual([['nginx:1.27', 'envoy:1.30']]);
    expect(parseJsonPath('{.spec.containers[*].image}').execute(widget)).toBe('nginx:1.27 envoy:1.30');
  });

  it('find no value for a missing field, a filter that matches nothing, or an object without status', () => {
    expect(column('.spec.missing')).toEqual([[]]);
    expect(column('.status.conditions[?(@.type=="Degraded")].status')).toEqual([[]]);
    expect(column('.status.conditions[?(@.type=="Ready")].status', { metadata: { name: 'x' } })).toEqual([[]]);
  });

  it('find a null member as null, which a string cell prints as <no value>', () => {
    expect(column('.status.observed')).toEqual([[null]]);
    expect(printJsonPathValue(column('.status.observed')[0]![0])).toBe('<no value>');
  });

  it('hand back the object members themselves', () => {
    expect(column('.spec.containers[0]')[0]![0]).toBe(widget.spec.containers[0]);
    expect(printJsonPathValue(column('.spec.containers[0]')[0]![0])).toBe('{"image":"nginx:1.27","name":"main"}');
  });
});
