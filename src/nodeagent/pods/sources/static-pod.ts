/**
 * Turning a manifest from a file or URL into the pod the agent runs, as kubelet's
 * `pkg/kubelet/config/common.go` does: decode one Pod (JSON or YAML), then `applyDefaults`: a
 * uid hashed from the manifest, the node and the source when it has none, the name
 * `<name>-<nodeName>`, namespace `default`, `spec.nodeName`, and the `kubernetes.io/config.*`
 * annotations (hash, source, seen).
 */
import { createHash } from 'node:crypto';
import type { Pod } from '../../../kinds/types/core-v1.js';
import { parseYamlDocuments } from '../../../codec/yaml.js';
import { CONFIG_HASH_ANNOTATION, CONFIG_SEEN_ANNOTATION, CONFIG_SOURCE_ANNOTATION } from '../pod-util.js';

/** A manifest that is not a usable pod. */
export class ManifestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManifestError';
  }
}

/** The largest manifest read (a file or a URL's body): a bigger one is refused, not parsed. */
export const MAX_MANIFEST_BYTES = 10 * 1024 * 1024;

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Decodes manifest text: JSON, or one YAML document. */
export function decodeManifest(text: string): unknown {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new ManifestError(`invalid JSON: ${(e as Error).message}`);
    }
  }
  let docs;
  try {
    docs = parseYamlDocuments(text);
  } catch (e) {
    throw new ManifestError(`error converting YAML to JSON: yaml: ${(e as Error).message}`);
  }
  if (docs.length === 0) throw new ManifestError('empty manifest');
  return docs[0]!.value;
}

/** The checks a pod must pass before it runs (a subset of `ValidatePodCreate`), with field paths. */
export function staticPodErrors(pod: Json): string[] {
  const errors: string[] = [];
  const meta = pod['metadata'];
  if (!isObject(meta) || typeof meta['name'] !== 'string' || meta['name'] === '')
    errors.push('metadata.name: Required value: name or generateName is required');
  const spec = pod['spec'];
  if (!isObject(spec)) return [...errors, 'spec: Required value'];
  const containers = spec['containers'];
  if (!Array.isArray(containers) || containers.length === 0) errors.push('spec.containers: Required value');
  const names = new Set<string>();
  for (const [list, items] of [
    ['initContainers', spec['initContainers']],
    ['containers', containers],
  ] as const) {
    if (items === undefined || items === null) continue;
    if (!Array.isArray(items)) {
      errors.push(`spec.${list}: Invalid value: must be a list`);
      continue;
    }
    items.forEach((c: unknown, i) => {
      if (!isObject(c)) return errors.push(`spec.${list}[${i}]: Invalid value: must be an object`);
      if (typeof c['name'] !== 'string' || c['name'] === '') errors.push(`spec.${list}[${i}].name: Required value`);
      else if (names.has(c['name'])) errors.push(`spec.${list}[${i}].name: Duplicate value: ${JSON.stringify(c['name'])}`);
      else names.add(c['name']);
      if (typeof c['image'] !== 'string' || c['image'] === '') errors.push(`spec.${list}[${i}].image: Required value`);
      return undefined;
    });
  }
  return errors;
}

/** A decoded value as a v1 Pod, or why it is not one. */
export function asPod(value: unknown): Pod {
  if (!isObject(value)) throw new ManifestError('manifest is not an object');
  if (value['kind'] !== 'Pod' || (value['apiVersion'] !== 'v1' && value['apiVersion'] !== undefined)) {
    throw new ManifestError(
      `want kind "Pod" of apiVersion "v1", got kind ${JSON.stringify(value['kind'] ?? '')} of apiVersion ${JSON.stringify(value['apiVersion'] ?? '')}`,
    );
  }
  const errors = staticPodErrors(value);
  if (errors.length) throw new ManifestError(`invalid pod: ${errors.join(', ')}`);
  return value as Pod;
}

/** `generatePodName`: a static pod's name carries its node's. */
export function staticPodName(name: string, nodeName: string): string {
  return `${name}-${nodeName}`;
}

/** The uid of a manifest without one: a hash of the pod, the node and where it came from (`file:<path>` or `url:<url>`). */
export function staticPodUid(pod: Pod, nodeName: string, origin: string): string {
  const hash = createHash('md5');
  hash.update(JSON.stringify(pod));
  hash.update(`host:${nodeName}`);
  hash.update(origin);
  return hash.digest('hex');
}

/** `applyDefaults` of a manifest from `source` (`file` or `http`), found at `origin`. */
export function applyStaticPodDefaults(pod: Pod, nodeName: string, source: 'file' | 'http', origin: string, seen: string): Pod {
  const meta = pod.metadata ?? {};
  const uid = meta.uid || staticPodUid(pod, nodeName, source === 'file' ? `file:${origin}` : `url:${origin}`);
  return {
    ...pod,
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...meta,
      uid,
      name: staticPodName(meta.name ?? '', nodeName),
      namespace: meta.namespace || 'default',
      annotations: {
        ...meta.annotations,
        [CONFIG_HASH_ANNOTATION]: uid,
        [CONFIG_SOURCE_ANNOTATION]: source,
        [CONFIG_SEEN_ANNOTATION]: seen,
      },
    },
    spec: { ...pod.spec!, nodeName },
    status: { phase: 'Pending' },
  };
}
