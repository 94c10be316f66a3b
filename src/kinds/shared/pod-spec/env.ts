/**
 * Validation of container environment (`ValidateEnv`, `validateEnvVarValueFrom`, `ValidateEnvFrom`)
 * and of the downward API selectors shared with volumes (`validateObjectFieldSelector`,
 * `validateContainerResourceFieldSelector`).
 */
import { child, fieldError, index, type FieldError } from '../../../machinery/field-errors.js';
import { isConfigMapKey, isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain } from '../../../schema/validation/names.js';
import type { Container, EnvVar } from '../../types/core-v1.js';
import { dns1123LabelErrors, isRelaxedEnvVarName, pathNoBackstepsErrors } from './formats.js';
import { quantityText, quantityValue } from '../resource-lists.js';

const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
];
/** `validVolumeDownwardAPIFieldPathExpressions`. */
export const VOLUME_FIELD_PATHS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];
const RESOURCE_FIELD_PATHS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];

/** `ValidateEnv` (relaxed names, GA since v1.34). */
export function envErrors(vars: EnvVar[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  vars.forEach((ev, i) => {
    const p = index(path, i);
    if (ev.name.length === 0) errs.push(fieldError.required(child(p, 'name')));
    else for (const msg of isRelaxedEnvVarName(ev.name)) errs.push(fieldError.invalid(child(p, 'name'), ev.name, msg));
    errs.push(...valueFromErrors(ev, child(p, 'valueFrom')));
  });
  return errs;
}

function valueFromErrors(ev: EnvVar, path: string): FieldError[] {
  const from = ev.valueFrom;
  if (!from) return [];
  const errs: FieldError[] = [];
  let sources = 0;
  if (from.fieldRef) {
    sources++;
    errs.push(...objectFieldSelectorErrors(from.fieldRef, ENV_FIELD_PATHS, child(path, 'fieldRef')));
  }
  if (from.resourceFieldRef) {
    sources++;
    errs.push(...resourceFieldSelectorErrors(from.resourceFieldRef, child(path, 'resourceFieldRef'), false));
  }
  for (const [name, sel] of [
    ['configMapKeyRef', from.configMapKeyRef],
    ['secretKeyRef', from.secretKeyRef],
  ] as const) {
    if (!sel) continue;
    sources++;
    const p = child(path, name);
    for (const msg of isDNS1123Subdomain(sel.name ?? '')) errs.push(fieldError.invalid(child(p, 'name'), sel.name ?? '', msg));
    if (!sel.key) errs.push(fieldError.required(child(p, 'key')));
    else for (const msg of isConfigMapKey(sel.key)) errs.push(fieldError.invalid(child(p, 'key'), sel.key, msg));
  }
  if (from.fileKeyRef) {
    sources++;
    const ref = from.fileKeyRef;
    const p = child(path, 'fileKeyRef');
    if (!ref.key) errs.push(fieldError.required(child(p, 'key')));
    else for (const msg of isRelaxedEnvVarName(ref.key)) errs.push(fieldError.invalid(child(p, 'key'), ref.key, msg));
    if (!ref.volumeName) errs.push(fieldError.required(child(p, 'volumeName')));
    else errs.push(...dns1123LabelErrors(ref.volumeName, child(p, 'volumeName')));
    if (!ref.path) errs.push(fieldError.required(child(p, 'path')));
    else errs.push(...pathNoBackstepsErrors(ref.path, child(p, 'path')));
  }
  if (sources === 0) {
    errs.push(fieldError.invalid(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`'));
  } else if (ev.value) {
    errs.push(fieldError.invalid(path, '', 'may not be specified when `value` is not empty'));
  } else if (sources > 1) {
    errs.push(fieldError.invalid(path, '', 'may not have more than one field specified at a time'));
  }
  return errs;
}

/** Field labels `ConvertDownwardAPIFieldLabel` accepts (besides subscripted annotations and labels). */
const CONVERTIBLE_FIELD_LABELS = new Set([
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
]);

/** `fieldpath.SplitMaybeSubscriptedPath`: `metadata.labels['key']` is `['metadata.labels', 'key']`. */
function splitSubscript(fieldPath: string): [string, string] | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const s = fieldPath.slice(0, -2);
  const i = s.indexOf("['");
  if (i <= 0) return undefined;
  return [s.slice(0, i), s.slice(i + 2)];
}

/** `validateObjectFieldSelector` (after `ConvertDownwardAPIFieldLabel`). */
export function objectFieldSelectorErrors(fs: { apiVersion?: string; fieldPath: string }, allowed: readonly string[], path: string): FieldError[] {
  if (!fs.apiVersion) return [fieldError.required(child(path, 'apiVersion'))];
  if (!fs.fieldPath) return [fieldError.required(child(path, 'fieldPath'))];
  const conversionError = (why: string) => [fieldError.invalid(child(path, 'fieldPath'), fs.fieldPath, `error converting fieldPath: ${why}`)];
  if (fs.apiVersion !== 'v1') return conversionError(`unsupported pod version: ${fs.apiVersion}`);
  const sub = splitSubscript(fs.fieldPath);
  if (sub) {
    const [base, subscript] = sub;
    if (base === 'metadata.annotations') return isQualifiedName(subscript.toLowerCase()).map((msg) => fieldError.invalid(path, subscript.toLowerCase(), msg));
    if (base === 'metadata.labels') return isQualifiedName(subscript).map((msg) => fieldError.invalid(path, subscript, msg));
    return conversionError(`field label does not support subscript: ${fs.fieldPath}`);
  }
  const internal = fs.fieldPath === 'spec.host' ? 'spec.nodeName' : fs.fieldPath;
  if (!CONVERTIBLE_FIELD_LABELS.has(internal)) return conversionError(`field label not supported: ${fs.fieldPath}`);
  if (!allowed.includes(internal)) return [fieldError.notSupported(child(path, 'fieldPath'), internal, allowed)];
  return [];
}

const DIVISORS_CPU = ['1m', '1'];
const DIVISORS_BYTES = ['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei'];

/** `validateContainerResourceFieldSelector` with the divisor rules. */
export function resourceFieldSelectorErrors(
  fs: { containerName?: string; resource: string; divisor?: string | number },
  path: string,
  volume: boolean,
): FieldError[] {
  const errs: FieldError[] = [];
  if (volume && !fs.containerName) errs.push(fieldError.required(child(path, 'containerName')));
  else if (!fs.resource) errs.push(fieldError.required(child(path, 'resource')));
  else if (!RESOURCE_FIELD_PATHS.includes(fs.resource) && !/^(requests|limits)\.hugepages-/.test(fs.resource)) {
    errs.push(fieldError.notSupported(child(path, 'resource'), fs.resource, RESOURCE_FIELD_PATHS));
  }
  const divisor = quantityValue(fs.divisor);
  if (!divisor || divisor.nanos === 0n) return errs;
  const text = quantityText(divisor);
  const p = child(path, 'divisor');
  const r = fs.resource;
  if ((r === 'limits.cpu' || r === 'requests.cpu') && !DIVISORS_CPU.includes(text)) {
    errs.push(fieldError.invalid(p, r, "only divisor's values 1m and 1 are supported with the cpu resource"));
  } else if ((r === 'limits.memory' || r === 'requests.memory') && !DIVISORS_BYTES.includes(text)) {
    errs.push(fieldError.invalid(p, r, `only divisor's values ${DIVISORS_BYTES.join(', ')} are supported with the memory resource`));
  } else if ((r === 'limits.ephemeral-storage' || r === 'requests.ephemeral-storage') && !DIVISORS_BYTES.includes(text)) {
    errs.push(fieldError.invalid(p, r, `only divisor's values ${DIVISORS_BYTES.join(', ')} are supported with the local ephemeral storage resource`));
  }
  if (/^(requests|limits)\.hugepages-/.test(r) && !DIVISORS_BYTES.includes(text)) {
    errs.push(fieldError.invalid(p, r, `only divisor's values ${DIVISORS_BYTES.join(', ')} are supported with the hugepages resource`));
  }
  return errs;
}

export function envFromErrors(c: Container, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (c.envFrom ?? []).forEach((ev, i) => {
    const p = index(path, i);
    if (ev.prefix) for (const msg of isRelaxedEnvVarName(ev.prefix)) errs.push(fieldError.invalid(child(p, 'prefix'), ev.prefix, msg));
    let sources = 0;
    for (const [name, ref] of [
      ['configMapRef', ev.configMapRef],
      ['secretRef', ev.secretRef],
    ] as const) {
      if (!ref) continue;
      sources++;
      const np = child(child(p, name), 'name');
      if (!ref.name) errs.push(fieldError.required(np));
      // The name is checked as a prefix (generateName) would be.
      else for (const msg of nameIsDNSSubdomain(ref.name, true)) errs.push(fieldError.invalid(np, ref.name, msg));
    }
    if (sources === 0) errs.push(fieldError.invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (sources > 1) errs.push(fieldError.invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}
