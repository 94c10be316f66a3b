/**
 * Node rules of Kubernetes v1.36: decode defaults (allocatable from capacity, quantities, the
 * podCIDR/podCIDRs conversion, struct fields Go always writes), the TaintNodesByCondition
 * admission taint, `ValidateNode` and `ValidateNodeUpdate` (with Kubernetes' own paths, e.g.
 * taints reported under `metadata.taints`).
 */
import { child, fieldError, index, type FieldError } from '../../../machinery/field-errors.js';
import { isConfigMapKey, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, validateNamespaceName } from '../../../schema/validation/names.js';
import type { Node, NodeConfigSource, Taint } from '../../types/core-v1.js';
import { cidrFamily, legacyCIDRErrors, positiveFieldErrors } from '../../shared/pod-spec/formats.js';
import { resourceQuantityErrors } from '../../shared/pod-spec/resources.js';
import { taintEffectErrors } from '../../shared/pod-spec/scheduling.js';
import { normalizeResourceList } from '../../shared/resource-lists.js';

/** Decode-time defaults and conversion. Throws `QuantityDecodeError` for a malformed quantity. */
export function applyNodeDefaults(node: Node): void {
  const spec = (node.spec ??= {});
  // v1 → internal → v1: podCIDR is authoritative, podCIDRs[0] mirrors it.
  if (spec.podCIDR && (!spec.podCIDRs?.length || spec.podCIDRs[0] !== spec.podCIDR)) spec.podCIDRs = [spec.podCIDR];
  if (spec.podCIDRs?.length) spec.podCIDR = spec.podCIDRs[0];
  const status = (node.status ??= {});
  normalizeResourceList(status.capacity);
  normalizeResourceList(status.allocatable);
  if (status.capacity && !status.allocatable) status.allocatable = { ...status.capacity };
  // NodeDaemonEndpoints and DaemonEndpoint are structs: Go always writes them.
  status.daemonEndpoints ??= {};
  status.daemonEndpoints.kubeletEndpoint ??= { Port: 0 };
}

/** Node strategy `PrepareForCreate` (configSource is gone since DynamicKubeletConfig) and TaintNodesByCondition admission. */
export function prepareNodeCreate(node: Node, reservedDomain: string): void {
  if (node.spec) delete node.spec.configSource;
  const key = `node.${reservedDomain}/not-ready`;
  const spec = (node.spec ??= {});
  if (!(spec.taints ?? []).some((t) => t.key === key && t.effect === 'NoSchedule')) spec.taints = [...(spec.taints ?? []), { key, effect: 'NoSchedule' }];
}

/** Node strategy `PrepareForUpdate`: a configSource can only be kept, not added. */
export function prepareNodeUpdate(node: Node, old: Readonly<Node>): void {
  if (node.spec?.configSource && !old.spec?.configSource) delete node.spec.configSource;
}

/** A taint as Go marshals `core.Taint` (field order, omitempty). */
function taintValue(t: Taint): Record<string, unknown> {
  const out: Record<string, unknown> = { key: t.key };
  if (t.value) out['value'] = t.value;
  out['effect'] = t.effect;
  if (t.timeAdded) out['timeAdded'] = t.timeAdded;
  return out;
}

/** `validateNodeTaints` (Kubernetes passes `metadata` as the parent path). */
function taintErrors(taints: Taint[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Map<string, Set<string>>();
  taints.forEach((t, i) => {
    const p = index(path, i);
    for (const msg of isQualifiedName(t.key)) errs.push(fieldError.invalid(child(p, 'key'), t.key, msg));
    const valueMsgs = isValidLabelValue(t.value ?? '');
    if (valueMsgs.length) errs.push(fieldError.invalid(child(p, 'value'), t.value ?? '', valueMsgs.join(';')));
    errs.push(...taintEffectErrors(t.effect, false, child(p, 'effect')));
    const keys = unique.get(t.effect);
    if (keys?.has(t.key)) {
      errs.push({ ...fieldError.duplicate(p, taintValue(t)), detail: 'taints must be unique by key and effect pair' });
      return;
    }
    if (keys) keys.add(t.key);
    else unique.set(t.effect, new Set([t.key]));
  });
  return errs;
}

/** `ValidateNodeResources`. */
function resourceErrors(node: Node): FieldError[] {
  const errs: FieldError[] = [];
  for (const list of ['capacity', 'allocatable'] as const) {
    for (const [name, value] of Object.entries(node.status?.[list] ?? {})) errs.push(...resourceQuantityErrors(name, value, `status.${list}.${name}`));
  }
  return errs;
}

const DECLARED_FEATURE = /^[A-Z][a-zA-Z0-9]*(\/[a-zA-Z][a-zA-Z0-9]*)*$/;

/** `validateNodeDeclaredFeatures`: valid names, sorted, no duplicates. */
function declaredFeatureErrors(features: string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  features.forEach((f, i) => {
    if (Buffer.byteLength(f, 'utf8') > 253)
      errs.push(fieldError.invalid(index(path, i), f, `invalid feature name ${JSON.stringify(f)}: must be no more than 253 characters`));
    else if (!DECLARED_FEATURE.test(f)) {
      errs.push(
        fieldError.invalid(
          index(path, i),
          f,
          `invalid feature name ${JSON.stringify(f)}: must start with an UpperCamelCase segment, with subsequent segments separated by '/' (e.g., MyFeature or MyFeature/mySubFeature), and contain only alphanumeric characters and slashes`,
        ),
      );
    }
    const next = features[i + 1];
    if (next === undefined) return;
    if (next === f) errs.push(fieldError.duplicate(index(path, i + 1), next));
    else if (f > next) errs.push(fieldError.invalid(index(path, i + 1), next, 'list must be sorted alphabetically'));
  });
  return errs;
}

/** `ValidateNode` without ObjectMeta (the engine checks that). */
export function validateNode(node: Node): FieldError[] {
  const errs: FieldError[] = [];
  const spec = node.spec ?? {};
  if (spec.taints?.length) errs.push(...taintErrors(spec.taints, 'metadata.taints'));
  errs.push(...resourceErrors(node));
  const swap = node.status?.nodeInfo?.swap?.capacity;
  if (swap !== undefined) errs.push(...positiveFieldErrors(swap, 'metadata.nodeSwapStatus.capacity'));
  errs.push(...declaredFeatureErrors(node.status?.declaredFeatures ?? [], 'status.declaredFeatures'));
  const cidrs = spec.podCIDRs ?? [];
  cidrs.forEach((c, i) => errs.push(...legacyCIDRErrors(c, index('spec.podCIDRs', i))));
  if (cidrs.length > 1) {
    const families = new Set(cidrs.map(cidrFamily));
    const dualStack = families.has(4) && families.has(6) && !families.has(undefined);
    if (!dualStack || cidrs.length > 2) errs.push(fieldError.invalid('spec.podCIDRs', cidrs, 'may specify no more than one CIDR for each IP family'));
  }
  return errs;
}

function configMapSourceErrors(source: NonNullable<NodeConfigSource['configMap']>, path: string, inStatus: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (inStatus) {
    if (!source.uid) errs.push(fieldError.required(child(path, 'uid')));
    if (!source.resourceVersion) errs.push(fieldError.required(child(path, 'resourceVersion')));
  } else {
    if (source.uid) errs.push(fieldError.forbidden(child(path, 'uid'), 'uid must not be set in spec'));
    if (source.resourceVersion) errs.push(fieldError.forbidden(child(path, 'resourceVersion'), 'resourceVersion must not be set in spec'));
  }
  if (!source.namespace) errs.push(fieldError.required(child(path, 'namespace')));
  else for (const msg of validateNamespaceName(source.namespace, false)) errs.push(fieldError.invalid(child(path, 'namespace'), source.namespace, msg));
  if (!source.name) errs.push(fieldError.required(child(path, 'name')));
  else for (const msg of isDNS1123Subdomain(source.name)) errs.push(fieldError.invalid(child(path, 'name'), source.name, msg));
  if (!source.kubeletConfigKey) errs.push(fieldError.required(child(path, 'kubeletConfigKey')));
  else for (const msg of isConfigMapKey(source.kubeletConfigKey)) errs.push(fieldError.invalid(child(path, 'kubeletConfigKey'), source.kubeletConfigKey, msg));
  return errs;
}

function configSourceErrors(source: NodeConfigSource | undefined, path: string, inStatus: boolean): FieldError[] {
  if (!source) return [];
  const errs = source.configMap ? configMapSourceErrors(source.configMap, child(path, 'configMap'), inStatus) : [];
  if (!source.configMap) errs.push(fieldError.invalid(path, source, 'exactly one reference subfield must be non-nil'));
  return errs;
}

/** `ValidateNodeUpdate` without ObjectMeta. */
export function validateNodeUpdate(node: Node, old: Readonly<Node>): FieldError[] {
  const errs = resourceErrors(node);
  errs.push(...declaredFeatureErrors(node.status?.declaredFeatures ?? [], 'status.declaredFeatures'));
  const seen = new Set<string>();
  (node.status?.addresses ?? []).forEach((a, i) => {
    const id = `${a.type}\u0000${a.address}`;
    if (seen.has(id)) errs.push(fieldError.duplicate(index('status.addresses', i), { type: a.type, address: a.address }));
    seen.add(id);
  });
  const oldCIDRs = old.spec?.podCIDRs ?? [];
  const newCIDRs = node.spec?.podCIDRs ?? [];
  const cidrMessage = 'node updates may not change podCIDR except from "" to valid';
  if (oldCIDRs.length > 0) {
    if (oldCIDRs.length !== newCIDRs.length) errs.push(fieldError.forbidden('spec.podCIDRs', cidrMessage));
    else oldCIDRs.forEach((c, i) => c !== newCIDRs[i] && errs.push(fieldError.forbidden('spec.podCIDRs', cidrMessage)));
  }
  const oldProvider = old.spec?.providerID ?? '';
  if (oldProvider && oldProvider !== (node.spec?.providerID ?? '')) {
    errs.push(fieldError.forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  }
  errs.push(...configSourceErrors(node.spec?.configSource, 'spec.configSource', false));
  const config = node.status?.config;
  if (config) {
    for (const f of ['assigned', 'active', 'lastKnownGood'] as const) errs.push(...configSourceErrors(config[f], child('status.config', f), true));
  }
  if (node.spec?.taints?.length) errs.push(...taintErrors(node.spec.taints, 'metadata.taints'));
  if ((node.spec?.externalID ?? '') !== (old.spec?.externalID ?? '')) errs.push(fieldError.forbidden('spec.externalID', 'may not be updated'));
  return errs;
}
