/** VolumeAttachment (storage.k8s.io/v1, cluster-scoped). */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { immutableFieldError } from '../../schema/validation/immutable-fields.js';
import { inclusiveRangeError, isDNS1123Subdomain } from '../../schema/validation/names.js';
import { semanticEqualAt } from '../shared/semantic-equal.js';
import { VolumeAttachment as VolumeAttachmentSchema, type VolumeError } from '../types/storage-v1.js';
import { validateCSIDriverName } from './validation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A VolumeAttachment object. */
export type VolumeAttachment = VolumeAttachmentSchema;

const MAX_METADATA_SIZE = 256 * 1024;
const MAX_ERROR_MESSAGE_SIZE = 1024;
const SOURCE_MSG = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';
const utf8 = (s: string): number => Buffer.byteLength(s, 'utf8');

function validateVolumeError(e: VolumeError | undefined, path: string): FieldError[] {
  if (!e) return [];
  const errs: FieldError[] = [];
  // Kubernetes reports the metadata limit (256 KiB) for a message over 1024 bytes.
  if (e.message !== undefined && utf8(e.message) > MAX_ERROR_MESSAGE_SIZE) errs.push(fieldError.tooLong(`${path}.message`, MAX_METADATA_SIZE));
  if (e.errorCode !== undefined && e.errorCode !== null && e.errorCode < 0) {
    errs.push(fieldError.invalid(`${path}.errorCode`, e.errorCode, inclusiveRangeError(0, 2147483647)));
  }
  return errs;
}

/** `ValidateVolumeAttachment` (spec and status; metadata is the engine's). */
function validateVolumeAttachment(va: VolumeAttachment): FieldError[] {
  const errs: FieldError[] = [];
  const spec = va.spec ?? ({} as Partial<VolumeAttachment['spec']>);
  if (!spec.attacher) errs.push(fieldError.required('spec.attacher'));
  const source = spec.source ?? {};
  const hasPV = source.persistentVolumeName !== undefined && source.persistentVolumeName !== null;
  const hasInline = source.inlineVolumeSpec !== undefined && source.inlineVolumeSpec !== null;
  if (!hasPV && !hasInline) errs.push(fieldError.required('spec.source', SOURCE_MSG));
  else if (hasPV && hasInline) errs.push(fieldError.forbidden('spec.source', SOURCE_MSG));
  else if (hasPV && source.persistentVolumeName === '')
    errs.push(fieldError.required('spec.source.persistentVolumeName', 'must specify non empty persistentVolumeName'));
  const nodeName = spec.nodeName ?? '';
  for (const m of isDNS1123Subdomain(nodeName)) errs.push(fieldError.invalid('spec.nodeName', nodeName, m));
  const status = va.status;
  if (status) {
    let size = 0;
    for (const [k, v] of Object.entries(status.attachmentMetadata ?? {})) size += utf8(k) + utf8(v);
    if (size > MAX_METADATA_SIZE) errs.push(fieldError.tooLong('status.attachmentMetadata', MAX_METADATA_SIZE));
    errs.push(...validateVolumeError(status.attachError, 'status.attachError'), ...validateVolumeError(status.detachError, 'status.detachError'));
  }
  return errs;
}

/** `ValidateVolumeAttachmentV1`: the stricter checks of a new v1 attachment. */
function validateV1(va: VolumeAttachment): FieldError[] {
  const errs = validateCSIDriverName(va.spec?.attacher, 'spec.attacher');
  const pv = va.spec?.source?.persistentVolumeName;
  if (pv !== undefined && pv !== null) for (const m of isDNS1123Subdomain(pv)) errs.push(fieldError.invalid('spec.source.persistentVolumeName', pv, m));
  return errs;
}

const specEqual = semanticEqualAt(VolumeAttachmentSchema, 'spec');

/**
 * VolumeAttachment: attacher, exactly one source and the node name checked, the spec fixed once
 * created, status (attached, metadata, errors) through `/status`.
 */
export const VolumeAttachmentKind = defineKind<VolumeAttachment>({
  group: 'storage.{api_domain}',
  kind: 'VolumeAttachment',
  plural: 'volumeattachments',
  scope: 'Cluster',
  // pkg/registry/storage/volumeattachment/strategy.go never sets a generation.
  generation: false,
  versions: [lazyVersion('v1', VolumeAttachmentSchema, { storage: true })],
  statusSubresource: true,
  allowUnconditionalUpdate: false,
  schemaRequired: false,
  printerColumns: [
    {
      name: 'Attacher',
      type: 'string',
      format: 'name',
      description: 'attacher indicates the name of the volume driver that MUST handle this request. This is the name returned by GetPluginName().',
      value: (va) => va.spec?.attacher ?? '',
    },
    {
      name: 'PV',
      type: 'string',
      description: 'persistentVolumeName represents the name of the persistent volume to attach.',
      value: (va) => va.spec?.source?.persistentVolumeName ?? '',
    },
    {
      name: 'Node',
      type: 'string',
      description: 'nodeName represents the node that the volume should be attached to.',
      value: (va) => va.spec?.nodeName ?? '',
    },
    {
      name: 'Attached',
      type: 'boolean',
      description:
        'attached indicates the volume is successfully attached. This field must only be set by the entity completing the attach operation, i.e. the external-attacher.',
      value: (va) => va.status?.attached ?? false,
    },
  ],
  strategy: {
    defaults(va) {
      // VolumeAttachmentStatus is a Go struct whose `attached` has no omitempty.
      va.status ??= { attached: false };
      va.status.attached ??= false;
    },
    validate: (va, ctx) => (ctx.operation === 'create' ? [...validateVolumeAttachment(va), ...validateV1(va)] : validateVolumeAttachment(va)),
    validateUpdate(va, old) {
      // ValidateVolumeAttachmentUpdate validates the object again (after the strategy's own
      // ValidateVolumeAttachment), then the spec may not change.
      return [...validateVolumeAttachment(va), ...(specEqual(va.spec, old.spec) ? [] : [immutableFieldError('spec', va.spec)])];
    },
  },
});
