/** CSIDriver (storage.k8s.io/v1, cluster-scoped). */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { immutableFieldError } from '../../schema/validation/immutable-fields.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { CSIDriver as CSIDriverSchema } from '../types/storage-v1.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A CSIDriver object. */
export type CSIDriver = CSIDriverSchema;
type Spec = CSIDriver['spec'];

const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
const LIFECYCLE_MODES = ['Persistent', 'Ephemeral'];
const MIN_TOKEN_SECONDS = 600;
const MAX_TOKEN_SECONDS = 2 ** 32;

/** `SetDefaults_CSIDriver` (with the v1.36 gates on). */
function defaultCSIDriver(d: CSIDriver): void {
  d.spec ??= {};
  const s = d.spec;
  s.attachRequired ??= true;
  s.podInfoOnMount ??= false;
  s.storageCapacity ??= false;
  s.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
  if ((s.volumeLifecycleModes ?? []).length === 0) s.volumeLifecycleModes = ['Persistent'];
  s.requiresRepublish ??= false;
  s.seLinuxMount ??= false;
}

/** `validateCSIDriverSpec`. */
function validateSpec(spec: Spec | undefined): FieldError[] {
  const s = spec ?? {};
  const errs: FieldError[] = [];
  // The path of attachRequired is `attachedRequired` in Kubernetes.
  if (s.attachRequired === undefined || s.attachRequired === null) errs.push(fieldError.required('spec.attachedRequired'));
  if (s.podInfoOnMount === undefined || s.podInfoOnMount === null) errs.push(fieldError.required('spec.podInfoOnMount'));
  if (s.storageCapacity === undefined || s.storageCapacity === null) errs.push(fieldError.required('spec.storageCapacity'));
  if (s.fsGroupPolicy !== undefined && s.fsGroupPolicy !== null && !FS_GROUP_POLICIES.includes(s.fsGroupPolicy)) {
    errs.push(fieldError.notSupported('spec.fsGroupPolicy', s.fsGroupPolicy, FS_GROUP_POLICIES));
  }
  const audiences = new Set<string>();
  (s.tokenRequests ?? []).forEach((t, i) => {
    const p = `spec.tokenRequests[${i}]`;
    const audience = t.audience ?? '';
    if (audiences.has(audience)) {
      errs.push(fieldError.duplicate(`${p}.audience`, audience));
      return;
    }
    audiences.add(audience);
    const secs = t.expirationSeconds;
    if (secs === undefined || secs === null) return;
    if (secs < MIN_TOKEN_SECONDS) errs.push(fieldError.invalid(`${p}.expirationSeconds`, secs, 'may not specify a duration less than 10 minutes'));
    if (secs > MAX_TOKEN_SECONDS) errs.push(fieldError.invalid(`${p}.expirationSeconds`, secs, 'may not specify a duration larger than 2^32 seconds'));
  });
  for (const mode of s.volumeLifecycleModes ?? []) {
    if (!LIFECYCLE_MODES.includes(mode)) errs.push(fieldError.notSupported('spec.volumeLifecycleModes', mode, LIFECYCLE_MODES));
  }
  if (s.seLinuxMount === undefined || s.seLinuxMount === null) errs.push(fieldError.required('spec.seLinuxMount'));
  const period = s.nodeAllocatableUpdatePeriodSeconds;
  if (period !== undefined && period !== null && period < 10) {
    errs.push(fieldError.invalid('spec.nodeAllocatableUpdatePeriodSeconds', period, 'must be greater than or equal to 10 seconds'));
  }
  return errs;
}

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((x, i) => x === b![i]);

/** `printCSIDriver`'s TokenRequests cell: the audiences, `<unset>` when none are declared. */
function formatTokenRequests(d: Readonly<CSIDriver>): string {
  const t = d.spec?.tokenRequests;
  return t === undefined || t === null ? '<unset>' : t.map((r) => r.audience).join(',');
}

/**
 * CSIDriver: the v1 defaults, spec validation, attachRequired and volumeLifecycleModes fixed once
 * created; generation 1 on create, +1 on spec changes.
 */
export const CSIDriverKind = defineKind<CSIDriver>({
  group: 'storage.{api_domain}',
  kind: 'CSIDriver',
  plural: 'csidrivers',
  scope: 'Cluster',
  // 1 on create, +1 when the spec changes (pkg/registry/storage/csidriver/strategy.go).
  generation: specGeneration(CSIDriverSchema),
  versions: [lazyVersion('v1', CSIDriverSchema, { storage: true })],
  allowUnconditionalUpdate: false,
  schemaRequired: false,
  printerColumns: [
    {
      name: 'AttachRequired',
      type: 'boolean',
      description: 'attachRequired indicates this CSI volume driver requires an attach operation.',
      value: (d) => d.spec?.attachRequired ?? true,
    },
    {
      name: 'PodInfoOnMount',
      type: 'boolean',
      description: 'podInfoOnMount indicates this CSI volume driver requires additional pod information (like podName, podUID, etc.) during mount operations.',
      value: (d) => d.spec?.podInfoOnMount ?? false,
    },
    {
      name: 'StorageCapacity',
      type: 'boolean',
      description:
        'storageCapacity indicates that the CSI volume driver wants pod scheduling to consider the storage capacity that the driver deployment will report.',
      value: (d) => d.spec?.storageCapacity ?? false,
    },
    {
      name: 'TokenRequests',
      type: 'string',
      description: "tokenRequests indicates the CSI driver needs pods' service account tokens it is mounting volume for to do necessary authentication.",
      value: formatTokenRequests,
    },
    {
      name: 'RequiresRepublish',
      type: 'boolean',
      description:
        'requiresRepublish indicates the CSI driver wants `NodePublishVolume` being periodically called to reflect any possible change in the mounted volume.',
      value: (d) => d.spec?.requiresRepublish ?? false,
    },
    {
      name: 'Modes',
      type: 'string',
      description: 'volumeLifecycleModes defines what kind of volumes this CSI volume driver supports.',
      value: (d) => (d.spec?.volumeLifecycleModes ?? []).join(',') || '<none>',
    },
  ],
  strategy: {
    defaults: defaultCSIDriver,
    validate: (d, ctx) => (ctx.operation === 'create' ? validateSpec(d.spec) : []),
    validateUpdate(d, old) {
      // The strategy validates the driver, then ValidateCSIDriverUpdate validates the spec again
      // and checks the immutable fields.
      const errs = [...validateSpec(d.spec), ...validateSpec(d.spec)];
      if (d.spec?.attachRequired !== old.spec?.attachRequired) errs.push(immutableFieldError('spec.attachedRequired', d.spec?.attachRequired ?? null));
      if (!sameList(d.spec?.volumeLifecycleModes, old.spec?.volumeLifecycleModes)) {
        errs.push(immutableFieldError('spec.volumeLifecycleModes', d.spec?.volumeLifecycleModes ?? null));
      }
      return errs;
    },
  },
});
