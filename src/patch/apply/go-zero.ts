/**
 * An object as Kubernetes' field manager sees it: a typed Go object.
 *
 * A Go struct always has its non-pointer struct fields (`metadata`, `spec`, `status`, a pod
 * template's `metadata` and `spec`, a container's `resources`, ...) and its fields without
 * `omitempty` (`containers`, `name`, ...), even when the JSON did not carry them; an object being
 * created is compared with an empty Go object, not with nothing. That is why `kubectl create`
 * leaves `f:spec` without a `.` member but `f:labels` with one. Conversely an `omitempty` list or
 * map that is empty, or a field that is `null`, does not exist in the typed object. To compute the
 * same field sets, stored and updated objects are seen through this view.
 */
import { goScalarZeroValue, goZeroValue } from '../../schema/go-zero-value.js';
import type { StructNode, StructuralNode } from '../../schema/structural.js';
import { isJsonObject } from '../../util/go-value.js';
import { cloneJsonDocument } from '../../util/json-clone.js';
import { setOwn } from '../../util/own.js';
import { hasDefinedOwn, ownKeys } from './value.js';

/**
 * Optional (omitempty) struct fields that are not pointers in the Go types, by the definition
 * that holds them. The top-level `metadata`, `spec` and `status` of every kind are non-pointer
 * structs too.
 */
const NON_POINTER_STRUCT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'io.k8s.api.core.v1.PodTemplateSpec': ['metadata', 'spec'],
  'io.k8s.api.batch.v1.JobTemplateSpec': ['metadata', 'spec'],
  'io.k8s.api.core.v1.PersistentVolumeClaimTemplate': ['metadata'],
  'io.k8s.api.apps.v1.DeploymentSpec': ['strategy'],
  'io.k8s.api.apps.v1.StatefulSetSpec': ['updateStrategy'],
  'io.k8s.api.apps.v1.DaemonSetSpec': ['updateStrategy'],
  'io.k8s.api.core.v1.Container': ['resources'],
  'io.k8s.api.core.v1.EphemeralContainer': ['resources'],
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec': ['resources'],
  'io.k8s.api.core.v1.ServiceStatus': ['loadBalancer'],
  'io.k8s.api.core.v1.NodeStatus': ['daemonEndpoints', 'nodeInfo'],
  'io.k8s.api.core.v1.NodeDaemonEndpoints': ['kubeletEndpoint'],
};

/**
 * Optional `metav1.Time` / `MicroTime` fields that are values, not pointers: absent from JSON,
 * they are the zero time, which Go writes as `null` (so a new condition's `lastProbeTime` is a
 * field its writer owns).
 */
const NON_POINTER_TIME_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'io.k8s.api.core.v1.PodCondition': ['lastProbeTime', 'lastTransitionTime'],
  'io.k8s.api.core.v1.NodeCondition': ['lastHeartbeatTime', 'lastTransitionTime'],
  'io.k8s.api.core.v1.PersistentVolumeClaimCondition': ['lastProbeTime', 'lastTransitionTime'],
  'io.k8s.api.core.v1.NamespaceCondition': ['lastTransitionTime'],
  'io.k8s.api.core.v1.ContainerStateRunning': ['startedAt'],
  'io.k8s.api.core.v1.ContainerStateTerminated': ['startedAt', 'finishedAt'],
  'io.k8s.api.core.v1.Event': ['firstTimestamp', 'lastTimestamp', 'eventTime'],
  'io.k8s.api.core.v1.EventSeries': ['lastObservedTime'],
  'io.k8s.api.events.v1.Event': ['deprecatedFirstTimestamp', 'deprecatedLastTimestamp'],
  'io.k8s.api.apps.v1.StatefulSetCondition': ['lastTransitionTime'],
  'io.k8s.api.certificates.v1.CertificateSigningRequestCondition': ['lastTransitionTime', 'lastUpdateTime'],
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceCondition': ['lastTransitionTime'],
};

/** Whether the optional time field `name` of `parent` is a value in the Go type (absent, it is `null`). */
export function isNonPointerTime(parent: StructNode, name: string): boolean {
  return parent.id !== undefined && (NON_POINTER_TIME_FIELDS[parent.id]?.includes(name) ?? false);
}

/** Whether the struct field `name` of `parent` is a value, not a pointer, in the Go type (`root`: `parent` is the kind's top level). */
export function isNonPointerStruct(parent: StructNode, name: string, root: boolean): boolean {
  const child = parent.properties.get(name);
  if (!child || child.type !== 'object') return false;
  if (root && (name === 'metadata' || name === 'spec' || name === 'status')) return true;
  return parent.id !== undefined && (NON_POINTER_STRUCT_FIELDS[parent.id]?.includes(name) ?? false);
}

/**
 * Whether an optional (omitempty) field holding `value` is absent from the Go object: a nil
 * pointer, an empty slice or an empty map is not there (a null time is the zero time, kept).
 */
export function omittedWhenEmpty(child: StructuralNode, value: unknown): boolean {
  if (value === null) return !(child.type === 'string' && child.format === 'date-time');
  if (child.type === 'array') return Array.isArray(value) && value.length === 0;
  if (child.type === 'map') return isJsonObject(value) && ownKeys(value).length === 0;
  return false;
}

/** The Go zero value of a field, as the typed object shows it; `undefined` when it is omitted. */
export function zeroOf(node: StructuralNode, nonPointerStruct: boolean): unknown {
  switch (node.type) {
    case 'object':
      // A required struct is usually a value; an atomic one (a LabelSelector) is a pointer.
      if (!nonPointerStruct && node.mapType === 'atomic') return null;
      return fillStruct({}, node, false);
    case 'map':
    case 'array':
    case 'any':
      return null;
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
      return goScalarZeroValue(node);
    case 'int-or-string':
      return node.quantity ? '0' : 0;
  }
}

function fillStruct(v: Record<string, unknown>, node: StructNode, root: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ownKeys(v)) {
    const child = node.properties.get(k);
    const value = v[k];
    if (child && !node.required.has(k) && !isNonPointerStruct(node, k, root) && omittedWhenEmpty(child, value)) continue;
    setOwn(out, k, child ? fill(value, child, false) : cloneJsonDocument(value));
  }
  for (const [name, child] of node.properties) {
    if (hasDefinedOwn(v, name)) continue;
    if (isNonPointerTime(node, name)) {
      setOwn(out, name, null);
      continue;
    }
    const nonPointer = isNonPointerStruct(node, name, root);
    if (nonPointer || node.required.has(name)) {
      const z = zeroOf(child, nonPointer);
      if (z !== undefined) setOwn(out, name, z);
    }
  }
  return out;
}

function fill(v: unknown, node: StructuralNode, root: boolean): unknown {
  if (node.type === 'object' && isJsonObject(v)) return fillStruct(v, node, root);
  if (node.type === 'array' && Array.isArray(v)) return v.map((x) => fill(x, node.items, false));
  if (node.type === 'map' && isJsonObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of ownKeys(v)) setOwn(out, k, fill(v[k], node.values, false));
    return out;
  }
  return cloneJsonDocument(v);
}

/**
 * `obj` as the typed Go object shows it: zero values of non-pointer structs and non-omitempty
 * fields filled in, empty omitempty lists and maps and null fields left out.
 */
export function withGoZeroValues(obj: unknown, schema: StructuralNode): unknown {
  return fill(obj ?? {}, schema, true);
}

function encoded(v: unknown, node: StructuralNode): unknown {
  switch (node.type) {
    case 'object': {
      if (!isJsonObject(v)) return cloneJsonDocument(v);
      const out: Record<string, unknown> = {};
      for (const k of ownKeys(v)) {
        const child = node.properties.get(k);
        const value = v[k];
        if (child && !node.required.has(k) && omittedWhenEmpty(child, value)) continue;
        setOwn(out, k, child ? (value === null && child.type === 'object' ? {} : encoded(value, child)) : cloneJsonDocument(value));
      }
      return out;
    }
    case 'map': {
      if (!isJsonObject(v)) return cloneJsonDocument(v);
      const out: Record<string, unknown> = {};
      for (const k of ownKeys(v)) setOwn(out, k, v[k] === null ? goZeroValue(node.values) : encoded(v[k], node.values));
      return out;
    }
    case 'array':
      return Array.isArray(v) ? v.map((x) => (x === null ? goZeroValue(node.items) : encoded(x, node.items))) : cloneJsonDocument(v);
    default:
      return cloneJsonDocument(v);
  }
}

/**
 * `obj` as Kubernetes stores it after converting it to its Go type: `null` fields unset (a zero
 * time stays `null`), empty `omitempty` lists and maps dropped, `null` map values and list items
 * their type's zero value.
 */
export function goEncoded(obj: unknown, schema: StructuralNode): unknown {
  return encoded(obj, schema);
}
