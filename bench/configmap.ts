/**
 * The ConfigMap every benchmark writes: about 1 KB of JSON as sent, so the figures
 * ("1 KB ConfigMaps") mean the same thing in every suite and in the load generator.
 */

/** A ConfigMap as a client sends it. */
export interface BenchConfigMap {
  apiVersion: 'v1';
  kind: 'ConfigMap';
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  data: Record<string, string>;
}

/** Target size of a sent ConfigMap, in bytes of JSON. */
export const CONFIGMAP_JSON_BYTES = 1024;

/**
 * A ConfigMap whose JSON (as sent) is {@link CONFIGMAP_JSON_BYTES} long for names up to ~100
 * characters: the data value is padded to make up the difference.
 */
export function benchConfigMap(name: string, labels?: Record<string, string>, namespace?: string): BenchConfigMap {
  const cm: BenchConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { value: '' } };
  if (namespace !== undefined) cm.metadata.namespace = namespace;
  if (labels !== undefined) cm.metadata.labels = labels;
  // Several keys rather than one long string, so the object looks like a real ConfigMap.
  const base = JSON.stringify(cm).length;
  const pad = Math.max(0, CONFIGMAP_JSON_BYTES - base);
  cm.data = { 'config.yaml': 'k: v\n'.repeat(Math.floor(pad / 10)) };
  const left = CONFIGMAP_JSON_BYTES - JSON.stringify(cm).length - ',"value":""'.length;
  cm.data.value = 'x'.repeat(Math.max(0, left));
  return cm;
}
