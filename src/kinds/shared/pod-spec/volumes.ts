/**
 * Validation of a Pod's volumes (`ValidateVolumes`, `validateVolumeSource` and the per-source
 * checks in `pkg/apis/core/validation/validation.go`), including Kubernetes' odd paths (a
 * gcePersistentDisk is checked under `persistentDisk`, a downwardAPI clash is reported at
 * `downwarAPI`).
 */
import { child, fieldError, index, key, type FieldError } from '../../../machinery/field-errors.js';
import { isDNS1123Subdomain } from '../../../schema/validation/names.js';
import { validateAnnotations, validateLabels } from '../../../schema/validation/object-meta.js';
import { goQuote } from '../../../util/go-format.js';
import type { ObjectMeta } from '../../types/meta-v1.js';
import type { DownwardAPIVolumeFile, KeyToPath, ProjectedVolumeSource, Volume } from '../../types/core-v1.js';
import { objectFieldSelectorErrors, resourceFieldSelectorErrors, VOLUME_FIELD_PATHS } from './env.js';
import { dns1123LabelErrors, fileModeErrors, localDescendingPathErrors, localNonReservedPathErrors, pathNoBackstepsErrors } from './formats.js';
import { validatePersistentVolumeClaimSpec } from '../persistent-volume-claim-rules.js';
import { quantityValue } from '../resource-lists.js';

/** `ValidateVolumes`: the errors, and the valid volumes by name (for mounts to refer to). */
export function validateVolumes(volumes: Volume[], podName: string | undefined, path: string): { volumes: Map<string, Volume>; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const valid = new Map<string, Volume>();
  const names = new Set<string>();
  const createdClaims = new Set(podName ? volumes.filter((v) => v.ephemeral).map((v) => `${podName}-${v.name}`) : []);
  volumes.forEach((v, i) => {
    const p = index(path, i);
    const namePath = child(p, 'name');
    const el = volumeSourceErrors(v, p, podName);
    if (!v.name) el.push(fieldError.required(namePath));
    else el.push(...dns1123LabelErrors(v.name, namePath));
    if (names.has(v.name)) el.push(fieldError.duplicate(namePath, v.name));
    if (el.length === 0) {
      names.add(v.name);
      valid.set(v.name, v);
    } else errors.push(...el);
    if (v.persistentVolumeClaim && createdClaims.has(v.persistentVolumeClaim.claimName)) {
      errors.push(
        fieldError.invalid(
          child(child(p, 'persistentVolumeClaim'), 'claimName'),
          v.persistentVolumeClaim.claimName,
          'must not reference a PVC that gets created for an ephemeral volume',
        ),
      );
    }
  });
  return { volumes: valid, errors };
}

/** The sources in the order Kubernetes checks them, with the path it reports a second source at. */
const SOURCE_ORDER: readonly [keyof Volume, string][] = [
  ['emptyDir', 'emptyDir'],
  ['hostPath', 'hostPath'],
  ['gitRepo', 'gitRepo'],
  ['gcePersistentDisk', 'gcePersistentDisk'],
  ['awsElasticBlockStore', 'awsElasticBlockStore'],
  ['secret', 'secret'],
  ['nfs', 'nfs'],
  ['iscsi', 'iscsi'],
  ['glusterfs', 'glusterfs'],
  ['flocker', 'flocker'],
  ['persistentVolumeClaim', 'persistentVolumeClaim'],
  ['rbd', 'rbd'],
  ['cinder', 'cinder'],
  ['cephfs', 'cephFS'],
  ['quobyte', 'quobyte'],
  ['downwardAPI', 'downwarAPI'],
  ['fc', 'fc'],
  ['flexVolume', 'flexVolume'],
  ['configMap', 'configMap'],
  ['azureFile', 'azureFile'],
  ['vsphereVolume', 'vsphereVolume'],
  ['photonPersistentDisk', 'photonPersistentDisk'],
  ['portworxVolume', 'portworxVolume'],
  ['azureDisk', 'azureDisk'],
  ['storageos', 'storageos'],
  ['projected', 'projected'],
  ['scaleIO', 'scaleIO'],
  ['csi', 'csi'],
  ['ephemeral', 'ephemeral'],
  ['image', 'image'],
];

const required = (value: unknown, path: string): FieldError[] =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0) ? [fieldError.required(path)] : [];

/** `validateVolumeSource`: exactly one source, each checked. */
function volumeSourceErrors(v: Volume, path: string, podName: string | undefined): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const [source, clashPath] of SOURCE_ORDER) {
    if (v[source] === undefined || v[source] === null) continue;
    if (count > 0) {
      errs.push(fieldError.forbidden(child(path, clashPath), 'may not specify more than 1 volume type'));
      if (source === 'iscsi') errs.push(...iscsiNameErrors(v, path));
      continue;
    }
    count++;
    errs.push(...oneSourceErrors(v, source, path, podName));
  }
  if (count === 0) errs.push(fieldError.required(path, 'must specify a volume type'));
  return errs;
}

function iscsiNameErrors(v: Volume, path: string): FieldError[] {
  const iscsi = v.iscsi!;
  if (iscsi.initiatorName !== undefined && Buffer.byteLength(`${v.name}:${iscsi.targetPortal}`, 'utf8') > 64) {
    return [
      fieldError.invalid(
        child(path, 'name'),
        v.name,
        'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.',
      ),
    ];
  }
  return [];
}

const PD_PARTITION = 'must be between 1 and 255, inclusive';
const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

/** The rules of one volume source of `v`, at `<path>.<source>` (also a PersistentVolume's source of the same type). */
export function oneSourceErrors(v: Volume, source: keyof Volume, path: string, podName: string | undefined): FieldError[] {
  const p = child(path, source);
  switch (source) {
    case 'emptyDir': {
      const size = quantityValue(v.emptyDir!.sizeLimit);
      return size && size.nanos < 0n ? [fieldError.forbidden(child(p, 'sizeLimit'), 'SizeLimit field must be a valid resource quantity')] : [];
    }
    case 'hostPath': {
      const hp = v.hostPath!;
      if (!hp.path) return [fieldError.required(child(p, 'path'))];
      const errs = pathNoBackstepsErrors(hp.path, child(p, 'path'));
      if (hp.type !== undefined && !HOST_PATH_TYPES.includes(hp.type)) errs.push(fieldError.notSupported(child(p, 'type'), hp.type, HOST_PATH_TYPES));
      return errs;
    }
    case 'gitRepo':
      return [...required(v.gitRepo!.repository, child(p, 'repository')), ...localDescendingPathErrors(v.gitRepo!.directory ?? '', child(p, 'directory'))];
    case 'gcePersistentDisk': {
      // Kubernetes checks it under `persistentDisk`.
      const pp = child(path, 'persistentDisk');
      const pd = v.gcePersistentDisk!;
      const errs = required(pd.pdName, child(pp, 'pdName'));
      if ((pd.partition ?? 0) < 0 || (pd.partition ?? 0) > 255) errs.push(fieldError.invalid(child(pp, 'partition'), pd.partition, PD_PARTITION));
      return errs;
    }
    case 'awsElasticBlockStore': {
      const pd = v.awsElasticBlockStore!;
      const errs = required(pd.volumeID, child(p, 'volumeID'));
      if ((pd.partition ?? 0) < 0 || (pd.partition ?? 0) > 255) errs.push(fieldError.invalid(child(p, 'partition'), pd.partition, PD_PARTITION));
      return errs;
    }
    case 'secret': {
      const s = v.secret!;
      return [
        ...required(s.secretName, child(p, 'secretName')),
        ...fileModeErrors(s.defaultMode, child(p, 'defaultMode')),
        ...keyToPathListErrors(s.items, child(p, 'items')),
      ];
    }
    case 'configMap': {
      const c = v.configMap!;
      return [
        ...required(c.name, child(p, 'name')),
        ...fileModeErrors(c.defaultMode, child(p, 'defaultMode')),
        ...keyToPathListErrors(c.items, child(p, 'items')),
      ];
    }
    case 'nfs': {
      const nfs = v.nfs!;
      const errs = [...required(nfs.server, child(p, 'server')), ...required(nfs.path, child(p, 'path'))];
      if (!nfs.path.startsWith('/')) errs.push(fieldError.invalid(child(p, 'path'), nfs.path, 'must be an absolute path'));
      return errs;
    }
    case 'iscsi':
      return [...iscsiErrors(v, p), ...iscsiNameErrors(v, path)];
    case 'glusterfs':
      return [...required(v.glusterfs!.endpoints, child(p, 'endpoints')), ...required(v.glusterfs!.path, child(p, 'path'))];
    case 'flocker': {
      const f = v.flocker!;
      const errs: FieldError[] = [];
      if (!f.datasetName && !f.datasetUUID) errs.push(fieldError.required(p, 'one of datasetName and datasetUUID is required'));
      if (f.datasetName && f.datasetUUID) errs.push(fieldError.invalid(p, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
      if (f.datasetName?.includes('/')) errs.push(fieldError.invalid(child(p, 'datasetName'), f.datasetName, "must not contain '/'"));
      return errs;
    }
    case 'persistentVolumeClaim':
      return required(v.persistentVolumeClaim!.claimName, child(p, 'claimName'));
    case 'rbd':
      return [...required(v.rbd!.monitors, child(p, 'monitors')), ...required(v.rbd!.image, child(p, 'image'))];
    case 'cinder': {
      const errs = required(v.cinder!.volumeID, child(p, 'volumeID'));
      if (v.cinder!.secretRef && !v.cinder!.secretRef.name) errs.push(fieldError.required(child(child(p, 'secretRef'), 'name')));
      return errs;
    }
    case 'cephfs':
      return required(v.cephfs!.monitors, child(p, 'monitors'));
    case 'quobyte': {
      const q = v.quobyte!;
      const errs: FieldError[] = [];
      const msg = 'must be a host:port pair or multiple pairs separated by commas';
      if (!q.registry) errs.push(fieldError.required(child(p, 'registry'), msg));
      else if (Buffer.byteLength(q.tenant ?? '', 'utf8') >= 65)
        errs.push(fieldError.required(child(p, 'tenant'), 'must be a UUID and may not exceed a length of 64 characters'));
      else
        for (const pair of q.registry.split(','))
          if (!/^[^:]*:[^:]*$|^\[[^\]]*\]:[^:]*$/.test(pair)) errs.push(fieldError.invalid(child(p, 'registry'), q.registry, msg));
      errs.push(...required(q.volume, child(p, 'volume')));
      return errs;
    }
    case 'downwardAPI': {
      const d = v.downwardAPI!;
      const errs = fileModeErrors(d.defaultMode, child(p, 'defaultMode'));
      for (const file of d.items ?? []) errs.push(...downwardAPIFileErrors(file, p));
      return errs;
    }
    case 'fc': {
      const fc = v.fc!;
      const errs: FieldError[] = [];
      const wwns = fc.targetWWNs ?? [];
      if (wwns.length < 1 && (fc.wwids ?? []).length < 1)
        errs.push(fieldError.required(child(p, 'targetWWNs'), 'must specify either targetWWNs or wwids, but not both'));
      if (wwns.length !== 0 && (fc.wwids ?? []).length !== 0)
        errs.push(fieldError.invalid(child(p, 'targetWWNs'), wwns, 'targetWWNs and wwids can not be specified simultaneously'));
      if (wwns.length !== 0) {
        if (fc.lun === undefined) errs.push(fieldError.required(child(p, 'lun'), 'lun is required if targetWWNs is specified'));
        else if (fc.lun < 0 || fc.lun > 255) errs.push(fieldError.invalid(child(p, 'lun'), fc.lun, 'must be between 0 and 255, inclusive'));
      }
      return errs;
    }
    case 'flexVolume': {
      const errs = required(v.flexVolume!.driver, child(p, 'driver'));
      for (const k of Object.keys(v.flexVolume!.options ?? {})) {
        const ns = `.${(k.includes('/') ? k.slice(0, k.indexOf('/')) : k).toLowerCase()}`;
        if (ns.endsWith('.kubernetes.io') || ns.endsWith('.k8s.io'))
          errs.push(fieldError.invalid(key(child(p, 'options'), k), k, 'kubernetes.io and k8s.io namespaces are reserved'));
      }
      return errs;
    }
    case 'azureFile':
      return [...required(v.azureFile!.secretName, child(p, 'secretName')), ...required(v.azureFile!.shareName, child(p, 'shareName'))];
    case 'vsphereVolume':
      return required(v.vsphereVolume!.volumePath, child(p, 'volumePath'));
    case 'photonPersistentDisk':
      return required(v.photonPersistentDisk!.pdID, child(p, 'pdID'));
    case 'portworxVolume':
      return required(v.portworxVolume!.volumeID, child(p, 'volumeID'));
    case 'azureDisk':
      return azureDiskErrors(v, p);
    case 'storageos':
      return storageOSErrors(v, p);
    case 'projected':
      return projectedErrors(v.projected!, p);
    case 'scaleIO':
      return [
        ...required(v.scaleIO!.gateway, child(p, 'gateway')),
        ...required(v.scaleIO!.system, child(p, 'system')),
        ...required(v.scaleIO!.volumeName, child(p, 'volumeName')),
      ];
    case 'csi': {
      const csi = v.csi!;
      const errs = required(csi.driver, child(p, 'driver'));
      if (csi.driver) {
        if (Buffer.byteLength(csi.driver, 'utf8') > 63) errs.push(fieldError.tooLong(child(p, 'driver'), 63));
        for (const msg of isDNS1123Subdomain(csi.driver.toLowerCase())) errs.push(fieldError.invalid(child(p, 'driver'), csi.driver, msg));
      }
      const secret = csi.nodePublishSecretRef;
      if (secret && !secret.name) errs.push(fieldError.required(child(child(p, 'nodePublishSecretRef'), 'name')));
      else if (secret?.name) for (const msg of isDNS1123Subdomain(secret.name)) errs.push(fieldError.invalid(child(p, 'name'), secret.name, msg));
      return errs;
    }
    case 'ephemeral': {
      const errs: FieldError[] = [];
      const template = v.ephemeral!.volumeClaimTemplate;
      const tp = child(p, 'volumeClaimTemplate');
      if (!template) errs.push(fieldError.required(tp));
      else errs.push(...templateMetaErrors(template.metadata, child(tp, 'metadata')), ...validatePersistentVolumeClaimSpec(template.spec, child(tp, 'spec')));
      if (podName && v.name) {
        const claim = `${podName}-${v.name}`;
        for (const msg of isDNS1123Subdomain(claim)) errs.push(fieldError.invalid(child(path, 'name'), v.name, `PVC name ${goQuote(claim)}: ${msg}`));
      }
      return errs;
    }
    case 'image': {
      const img = v.image!;
      const errs: FieldError[] = [];
      if (!img.reference) errs.push(fieldError.required(child(p, 'reference')));
      if (img.pullPolicy !== undefined && !['Always', 'IfNotPresent', 'Never'].includes(img.pullPolicy)) {
        errs.push(fieldError.notSupported(child(p, 'pullPolicy'), img.pullPolicy, ['Always', 'IfNotPresent', 'Never']));
      }
      return errs;
    }
    default:
      return [];
  }
}

function iscsiErrors(v: Volume, p: string): FieldError[] {
  const iscsi = v.iscsi!;
  const errs = required(iscsi.targetPortal, child(p, 'targetPortal'));
  const formatErrors = (value: string, path: string, prefixMessage: string): FieldError[] => {
    if (!/^(iqn|eui|naa)/.test(value)) return [fieldError.invalid(path, value, prefixMessage)];
    if (value.length > 1024) return [fieldError.invalid(path, value, 'must be valid format')];
    const ok = value.startsWith('iqn')
      ? /iqn\.\d{4}-\d{2}\.([A-Za-z0-9.-]+)(:[^,;*&$|\s]+)$/.test(value)
      : value.startsWith('eui')
        ? /^eui.[A-Za-z0-9]{16}$/.test(value)
        : /^naa.[A-Za-z0-9]{32}$/.test(value);
    return ok ? [] : [fieldError.invalid(path, value, 'must be valid format')];
  };
  if (!iscsi.iqn) errs.push(fieldError.required(child(p, 'iqn')));
  else errs.push(...formatErrors(iscsi.iqn, child(p, 'iqn'), 'must be valid format starting with iqn, eui, or naa'));
  if (iscsi.lun < 0 || iscsi.lun > 255) errs.push(fieldError.invalid(child(p, 'lun'), iscsi.lun, 'must be between 0 and 255, inclusive'));
  if ((iscsi.chapAuthDiscovery || iscsi.chapAuthSession) && !iscsi.secretRef) errs.push(fieldError.required(child(p, 'secretRef')));
  if (iscsi.initiatorName !== undefined)
    errs.push(...formatErrors(iscsi.initiatorName, child(p, 'initiatorname'), 'must be valid format starting with iqn, eui, or naa'));
  return errs;
}

function azureDiskErrors(v: Volume, p: string): FieldError[] {
  const d = v.azureDisk!;
  const errs = [...required(d.diskName, child(p, 'diskName')), ...required(d.diskURI, child(p, 'diskURI'))];
  if (d.cachingMode !== undefined && !['None', 'ReadOnly', 'ReadWrite'].includes(d.cachingMode))
    errs.push(fieldError.notSupported(child(p, 'cachingMode'), d.cachingMode, ['None', 'ReadOnly', 'ReadWrite']));
  if (d.kind !== undefined && !['Dedicated', 'Managed', 'Shared'].includes(d.kind))
    errs.push(fieldError.notSupported(child(p, 'kind'), d.kind, ['Dedicated', 'Managed', 'Shared']));
  if (d.kind === 'Managed' && !d.diskURI.startsWith('/subscriptions/')) {
    errs.push(
      fieldError.notSupported(child(p, 'diskURI'), d.diskURI, [
        '/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}',
      ]),
    );
  }
  if (d.kind !== undefined && d.kind !== 'Managed' && !d.diskURI.startsWith('https://')) {
    errs.push(fieldError.notSupported(child(p, 'diskURI'), d.diskURI, ['https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd']));
  }
  return errs;
}

function storageOSErrors(v: Volume, p: string): FieldError[] {
  const s = v.storageos!;
  const errs: FieldError[] = [];
  if (!s.volumeName) errs.push(fieldError.required(child(p, 'volumeName')));
  else errs.push(...dns1123LabelErrors(s.volumeName, child(p, 'volumeName')));
  if (s.volumeNamespace) errs.push(...dns1123LabelErrors(s.volumeNamespace, child(p, 'volumeNamespace')));
  if (s.secretRef && !s.secretRef.name) errs.push(fieldError.required(child(child(p, 'secretRef'), 'name')));
  return errs;
}

/** `validateKeyToPath` for each item. */
function keyToPathListErrors(items: KeyToPath[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (items ?? []).forEach((kp, i) => errs.push(...keyToPathErrors(kp, index(path, i))));
  return errs;
}

function keyToPathErrors(kp: KeyToPath, path: string): FieldError[] {
  return [
    ...required(kp.key, child(path, 'key')),
    ...required(kp.path, child(path, 'path')),
    ...localNonReservedPathErrors(kp.path, child(path, 'path')),
    ...fileModeErrors(kp.mode, child(path, 'mode')),
  ];
}

/** `validateDownwardAPIVolumeFile`, reported under the volume's (not the item's) path, as Kubernetes does. */
function downwardAPIFileErrors(file: DownwardAPIVolumeFile, path: string): FieldError[] {
  const errs = [...required(file.path, child(path, 'path')), ...localNonReservedPathErrors(file.path, child(path, 'path'))];
  if (file.fieldRef) {
    errs.push(...objectFieldSelectorErrors(file.fieldRef, VOLUME_FIELD_PATHS, child(path, 'fieldRef')));
    if (file.resourceFieldRef) errs.push(fieldError.invalid(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (file.resourceFieldRef) {
    errs.push(...resourceFieldSelectorErrors(file.resourceFieldRef, child(path, 'resourceFieldRef'), true));
  } else {
    errs.push(fieldError.required(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  errs.push(...fileModeErrors(file.mode, child(path, 'mode')));
  return errs;
}

/** `validateProjectedVolumeSource` / `validateProjectionSources` (the common sources). */
function projectedErrors(projection: ProjectedVolumeSource, path: string): FieldError[] {
  const errs = fileModeErrors(projection.defaultMode, child(path, 'defaultMode'));
  const paths = new Set<string>();
  const claimPath = (value: string, reported: unknown) => {
    if (paths.has(value)) errs.push(fieldError.invalid(path, reported, 'conflicting duplicate paths'));
    else paths.add(value);
  };
  (projection.sources ?? []).forEach((source, i) => {
    const srcPath = index(child(path, 'sources'), i);
    let count = 0;
    for (const kind of ['secret', 'configMap'] as const) {
      const s = source[kind];
      if (!s) continue;
      count++;
      const pp = child(srcPath, kind);
      if (!s.name) errs.push(fieldError.required(child(pp, 'name')));
      (s.items ?? []).forEach((kp, j) => {
        errs.push(...keyToPathErrors(kp, index(child(pp, 'items'), j)));
        if (kp.path) claimPath(kp.path, s.name ?? '');
      });
    }
    if (source.downwardAPI) {
      count++;
      for (const file of source.downwardAPI.items ?? []) {
        errs.push(...downwardAPIFileErrors(file, child(srcPath, 'downwardAPI')));
        if (file.path) claimPath(file.path, file.path);
      }
    }
    if (source.serviceAccountToken) {
      count++;
      const t = source.serviceAccountToken;
      const pp = child(srcPath, 'serviceAccountToken');
      const exp = t.expirationSeconds ?? 0;
      if (exp < 600) errs.push(fieldError.invalid(child(pp, 'expirationSeconds'), exp, 'may not specify a duration less than 10 minutes'));
      if (exp > 2 ** 32) errs.push(fieldError.invalid(child(pp, 'expirationSeconds'), exp, 'may not specify a duration larger than 2^32 seconds'));
      if (!t.path) errs.push(fieldError.required(child(path, 'path')));
      else errs.push(...localNonReservedPathErrors(t.path, child(path, 'path')));
    }
    if (source.clusterTrustBundle) {
      count++;
      const b = source.clusterTrustBundle;
      const pp = child(srcPath, 'clusterTrustBundle');
      if (b.name !== undefined && b.signerName !== undefined) errs.push(fieldError.invalid(pp, b, 'only one of name and signerName may be used'));
      else if (b.name === undefined && b.signerName === undefined) errs.push(fieldError.required(pp, 'either name or signerName must be specified'));
      if (!b.path) errs.push(fieldError.required(child(pp, 'path')));
      errs.push(...localNonReservedPathErrors(b.path, child(pp, 'path')));
      claimPath(b.path, b.path);
    }
    if (source.podCertificate) {
      count++;
      const c = source.podCertificate;
      const pp = child(srcPath, 'podCertificate');
      const keyTypes = ['RSA3072', 'RSA4096', 'ECDSAP256', 'ECDSAP384', 'ECDSAP521', 'ED25519'];
      if (!keyTypes.includes(c.keyType)) errs.push(fieldError.notSupported(child(pp, 'keyType'), c.keyType, keyTypes));
      let n = 0;
      for (const f of ['credentialBundlePath', 'keyPath', 'certificateChainPath'] as const) {
        const value = c[f];
        if (!value) continue;
        n++;
        errs.push(...localNonReservedPathErrors(value, child(pp, f)));
        claimPath(value, value);
      }
      if (n === 0) errs.push(fieldError.required(pp, 'specify at least one of credentialBundlePath, keyPath, and certificateChainPath'));
    }
    if (count > 1) errs.push(fieldError.forbidden(srcPath, 'may not specify more than 1 volume type per source'));
  });
  return errs;
}

/** ObjectMeta fields in Go's struct order, as `validateFieldAllowList` names them. */
const TEMPLATE_META_FIELDS = [
  ['name', 'name'],
  ['generateName', 'generateName'],
  ['namespace', 'namespace'],
  ['selfLink', 'selfLink'],
  ['uid', 'uID'],
  ['resourceVersion', 'resourceVersion'],
  ['generation', 'generation'],
  ['creationTimestamp', 'creationTimestamp'],
  ['deletionTimestamp', 'deletionTimestamp'],
  ['deletionGracePeriodSeconds', 'deletionGracePeriodSeconds'],
  ['ownerReferences', 'ownerReferences'],
  ['finalizers', 'finalizers'],
  ['managedFields', 'managedFields'],
] as const;

/** `ValidateTemplateObjectMeta`: labels and annotations only. */
function templateMetaErrors(meta: ObjectMeta | undefined, path: string): FieldError[] {
  const errs = [...validateAnnotations(meta?.annotations, child(path, 'annotations')), ...validateLabels(meta?.labels, child(path, 'labels'))];
  for (const [f, goName] of TEMPLATE_META_FIELDS) {
    const value = meta?.[f];
    if (value !== undefined && value !== null && value !== '' && value !== 0 && !(Array.isArray(value) && value.length === 0)) {
      errs.push(fieldError.forbidden(child(path, goName), 'cannot be set'));
    }
  }
  return errs;
}
