/**
 * PersistentVolume validation of Kubernetes v1.36 (`pkg/apis/core/validation/validation.go`:
 * `ValidatePersistentVolumeSpec`, `validateVolumeNodeAffinity`, `ValidatePersistentVolumeUpdate`),
 * in Kubernetes' order. ObjectMeta is checked by the engine.
 */
import { child, fieldError, GoPrinted, key, type FieldError } from '../../../machinery/field-errors.js';
import { immutableFieldError } from '../../../schema/validation/immutable-fields.js';
import { isDNS1123Subdomain } from '../../../schema/validation/names.js';
import type { StructuralNode } from '../../../schema/structural.js';
import { PersistentVolume as PersistentVolumeSchema, type PersistentVolume, type PersistentVolumeSpec, type Volume } from '../../types/core-v1.js';
import { pathNoBackstepsErrors } from '../../shared/pod-spec/formats.js';
import { oneSourceErrors } from '../../shared/pod-spec/volumes.js';
import { quantityIntegerValue, quantityValue } from '../../shared/resource-lists.js';
import { childNode, fieldNode, semanticEqual } from '../../shared/semantic-equal.js';
import { SUPPORTED_ACCESS_MODES, SUPPORTED_VOLUME_MODES } from '../../shared/persistent-volume-claim-rules.js';

const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];

/** The volume sources of a PersistentVolumeSpec in Kubernetes' order, with the Go field names of `core.PersistentVolumeSource`. */
export const PV_SOURCES = [
  ['hostPath', 'HostPath'],
  ['gcePersistentDisk', 'GCEPersistentDisk'],
  ['awsElasticBlockStore', 'AWSElasticBlockStore'],
  ['glusterfs', 'Glusterfs'],
  ['flocker', 'Flocker'],
  ['nfs', 'NFS'],
  ['rbd', 'RBD'],
  ['quobyte', 'Quobyte'],
  ['cephfs', 'CephFS'],
  ['iscsi', 'ISCSI'],
  ['cinder', 'Cinder'],
  ['fc', 'FC'],
  ['flexVolume', 'FlexVolume'],
  ['azureFile', 'AzureFile'],
  ['vsphereVolume', 'VsphereVolume'],
  ['photonPersistentDisk', 'PhotonPersistentDisk'],
  ['portworxVolume', 'PortworxVolume'],
  ['azureDisk', 'AzureDisk'],
  ['scaleIO', 'ScaleIO'],
  ['local', 'Local'],
  ['storageos', 'StorageOS'],
  ['csi', 'CSI'],
] as const;

type SourceName = (typeof PV_SOURCES)[number][0];

/** Sources whose type (and rules) a pod volume shares. */
const SHARED_WITH_POD_VOLUMES = new Set<SourceName>([
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'flocker',
  'nfs',
  'quobyte',
  'fc',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
]);

/** The path segment Kubernetes' "more than 1 volume type" error names where it differs from the JSON name. */
const FORBIDDEN_PATH: Partial<Record<SourceName, string>> = { cephfs: 'cephFS' };

const required = (value: unknown, path: string): FieldError[] =>
  value === undefined || value === '' || (Array.isArray(value) && value.length === 0) ? [fieldError.required(path)] : [];

/** The rules of one volume source (those memkube checks in depth; the others are only counted). */
function sourceErrors(spec: PersistentVolumeSpec, source: SourceName, pvName: string, path: string): FieldError[] {
  if (SHARED_WITH_POD_VOLUMES.has(source)) {
    return oneSourceErrors({ name: '', [source]: spec[source] } as Volume, source as keyof Volume, path, pvName);
  }
  const p = child(path, source);
  switch (source) {
    case 'glusterfs':
      return [...required(spec.glusterfs!.endpoints, child(p, 'endpoints')), ...required(spec.glusterfs!.path, child(p, 'path'))];
    case 'rbd':
      return [...required(spec.rbd!.monitors, child(p, 'monitors')), ...required(spec.rbd!.image, child(p, 'image'))];
    case 'cephfs':
      return required(spec.cephfs!.monitors, child(p, 'monitors'));
    case 'cinder':
      return required(spec.cinder!.volumeID, child(p, 'volumeID'));
    case 'local': {
      const localPath = spec.local!.path ?? '';
      return localPath ? pathNoBackstepsErrors(localPath, child(p, 'path')) : [fieldError.required(child(p, 'path'))];
    }
    case 'csi': {
      const csi = spec.csi!;
      const errs: FieldError[] = [];
      const driverPath = child(p, 'driver');
      const driver = csi.driver ?? '';
      // ValidateCSIDriverName.
      if (!driver) errs.push(fieldError.required(driverPath));
      if (driver.length > 63) errs.push(fieldError.tooLong(driverPath, 63));
      for (const msg of isDNS1123Subdomain(driver.toLowerCase())) errs.push(fieldError.invalid(driverPath, driver.toLowerCase(), msg));
      if (!csi.volumeHandle) errs.push(fieldError.required(child(p, 'volumeHandle')));
      return errs;
    }
    default:
      return [];
  }
}

/** `validateVolumeNodeAffinity`: whether one is specified, and its errors. */
function nodeAffinityErrors(spec: PersistentVolumeSpec, path: string): FieldError[] {
  const na = spec.nodeAffinity;
  if (!na) return [];
  if (!na.required) return [fieldError.required(child(path, 'required'), 'must specify required node constraints')];
  if ((na.required.nodeSelectorTerms ?? []).length === 0) {
    return [fieldError.required(child(child(path, 'required'), 'nodeSelectorTerms'), 'must have at least one node selector term')];
  }
  return [];
}

/** `ValidatePersistentVolumeSpec` (not inline) without ObjectMeta. */
export function validatePersistentVolumeSpec(spec: PersistentVolumeSpec, pvName: string, path = 'spec'): FieldError[] {
  const errs: FieldError[] = [];
  const modes = spec.accessModes ?? [];
  if (modes.length === 0) errs.push(fieldError.required(child(path, 'accessModes')));
  let rwop = false;
  let other = false;
  for (const mode of modes) {
    const supported = (SUPPORTED_ACCESS_MODES as readonly string[]).includes(mode);
    if (!supported) errs.push(fieldError.notSupported(child(path, 'accessModes'), mode, SUPPORTED_ACCESS_MODES));
    if (mode === 'ReadWriteOncePod') rwop = true;
    else if (supported) other = true;
  }
  if (rwop && other) errs.push(fieldError.forbidden(child(path, 'accessModes'), 'may not use ReadWriteOncePod with other access modes'));

  const capacity = spec.capacity ?? {};
  const capPath = child(path, 'capacity');
  const names = Object.keys(capacity);
  if (names.length === 0) errs.push(fieldError.required(capPath));
  if (!names.includes('storage') || names.length > 1) {
    // Shown with its keys sorted, as Go prints a map.
    const sorted = Object.fromEntries([...names].sort().map((n) => [n, capacity[n]]));
    errs.push(fieldError.notSupported(capPath, sorted, ['storage']));
  }
  for (const [name, value] of Object.entries(capacity)) {
    const q = quantityValue(value);
    if (!q) continue;
    // validateBasicResource, then ValidatePositiveQuantityValue.
    const whole = quantityIntegerValue(q);
    if (whole < 0n) errs.push(fieldError.invalid(key(capPath, name), new GoPrinted(String(whole)), 'must be a valid resource quantity'));
    if (q.nanos <= 0n) errs.push(fieldError.invalid(key(capPath, name), String(value), 'must be greater than zero'));
  }

  const policy = spec.persistentVolumeReclaimPolicy ?? '';
  if (policy && !RECLAIM_POLICIES.includes(policy)) errs.push(fieldError.notSupported(child(path, 'persistentVolumeReclaimPolicy'), policy, RECLAIM_POLICIES));

  errs.push(...nodeAffinityErrors(spec, child(path, 'nodeAffinity')));
  let count = 0;
  for (const [source] of PV_SOURCES) {
    if (spec[source] === undefined || spec[source] === null) continue;
    // Kubernetes counts a flexVolume without checking for another source first.
    if (count > 0 && source !== 'flexVolume') {
      errs.push(fieldError.forbidden(child(path, FORBIDDEN_PATH[source] ?? source), 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    errs.push(...sourceErrors(spec, source, pvName, path));
    if (source === 'local' && !spec.nodeAffinity) errs.push(fieldError.required(child(path, 'nodeAffinity'), 'Local volume requires node affinity'));
  }
  if (count === 0) errs.push(fieldError.required(path, 'must specify a volume type'));

  if (spec.hostPath && cleanPath(spec.hostPath.path ?? '') === '/' && policy === 'Recycle') {
    errs.push(fieldError.forbidden(child(path, 'persistentVolumeReclaimPolicy'), "may not be 'recycle' for a hostPath mount of '/'"));
  }
  if (spec.storageClassName) {
    for (const msg of isDNS1123Subdomain(spec.storageClassName)) errs.push(fieldError.invalid(child(path, 'storageClassName'), spec.storageClassName, msg));
  }
  if (spec.volumeMode !== undefined && !(SUPPORTED_VOLUME_MODES as readonly string[]).includes(spec.volumeMode)) {
    errs.push(fieldError.notSupported(child(path, 'volumeMode'), spec.volumeMode, SUPPORTED_VOLUME_MODES));
  }
  const vac = spec.volumeAttributesClassName;
  if (vac !== undefined) {
    if (vac === '') errs.push(fieldError.required(child(path, 'volumeAttributesClassName'), 'an empty string is disallowed'));
    else for (const msg of isDNS1123Subdomain(vac)) errs.push(fieldError.invalid(child(path, 'volumeAttributesClassName'), vac, msg));
    if (!spec.csi) errs.push(fieldError.required(child(path, 'csi'), 'has to be specified when using volumeAttributesClassName'));
  }
  return errs;
}

/** Go's `path.Clean` for the one question asked of it: is the path the root? */
function cleanPath(p: string): string {
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return p.startsWith('/') ? `/${parts.join('/')}` : parts.join('/') || '.';
}

let specNode: StructuralNode | undefined;
const specSchema = () => (specNode ??= fieldNode(PersistentVolumeSchema(), 'spec'));

/** A diff of two volume sources in the spirit of go-cmp's output (its exact text is deliberately unstable). */
function sourceDiff(oldSpec: PersistentVolumeSpec, newSpec: PersistentVolumeSpec): string {
  const lines = ['  core.PersistentVolumeSource{'];
  let same = 0;
  for (const [source, goName] of PV_SOURCES) {
    const a = oldSpec[source];
    const b = newSpec[source];
    if (semanticEqual(a, b, childNode(specSchema(), source))) {
      same++;
      continue;
    }
    if (a !== undefined) lines.push(`- \t${goName}: ${JSON.stringify(a)},`);
    if (b !== undefined) lines.push(`+ \t${goName}: ${JSON.stringify(b)},`);
  }
  if (same) lines.push(`  \t... // ${same} identical field${same === 1 ? '' : 's'}`);
  lines.push('  }');
  return lines.join('\n');
}

/** `ValidatePersistentVolumeUpdate` after `ValidatePersistentVolume` (done by `validate`). */
export function validatePersistentVolumeUpdate(pv: PersistentVolume, old: Readonly<PersistentVolume>): FieldError[] {
  const errs: FieldError[] = [];
  const newSpec: PersistentVolumeSpec = { ...(pv.spec ?? {}) };
  const oldSpec: PersistentVolumeSpec = old.spec ?? {};
  // A CSI volume without controllerExpandSecretRef may gain one.
  if (oldSpec.csi && !oldSpec.csi.controllerExpandSecretRef && newSpec.csi?.controllerExpandSecretRef) {
    newSpec.csi = { ...newSpec.csi };
    delete newSpec.csi.controllerExpandSecretRef;
  }
  const changed = PV_SOURCES.some(([source]) => !semanticEqual(newSpec[source], oldSpec[source], childNode(specSchema(), source)));
  if (changed) {
    errs.push(fieldError.forbidden('spec.persistentvolumesource', `spec.persistentvolumesource is immutable after creation\n${sourceDiff(oldSpec, newSpec)}`));
  }
  if (pv.spec?.volumeMode !== oldSpec.volumeMode) errs.push(immutableFieldError('volumeMode', pv.spec?.volumeMode ?? null));
  if (oldSpec.nodeAffinity && !semanticEqual(pv.spec?.nodeAffinity, oldSpec.nodeAffinity, childNode(specSchema(), 'nodeAffinity'))) {
    errs.push(immutableFieldError('nodeAffinity', pv.spec?.nodeAffinity ?? null));
  }
  if (oldSpec.volumeAttributesClassName !== undefined && pv.spec?.volumeAttributesClassName === undefined) {
    errs.push(fieldError.forbidden('spec.volumeAttributesClassName', 'update from non-nil value to nil is forbidden'));
  }
  return errs;
}
