/** ReplicationController (core v1). */
import { badRequest } from '../../machinery/errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { isDNS1123Label } from '../../schema/validation/names.js';
import { ReplicationController as ReplicationControllerSchema } from '../types/core-v1.js';
import { withZeroValues } from '../shared/zero-values.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { QuantityDecodeError } from '../shared/resource-lists.js';
import { containerCells, formatLabels, podTemplateWarnings } from './pod-template/template.js';
import { applyReplicationControllerDefaults } from './replication-controller/defaults.js';
import { validateReplicationControllerSpec, validateReplicationControllerStatus } from './replication-controller/validation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A ReplicationController object. */
export type ReplicationController = ReplicationControllerSchema;

/** Decode-time defaults; a malformed quantity fails the request as Kubernetes' decoder does (400). */
function defaultReplicationController(rc: ReplicationController): void {
  try {
    applyReplicationControllerDefaults(rc);
  } catch (e) {
    if (e instanceof QuantityDecodeError) throw badRequest(`ReplicationController in version "v1" cannot be handled as a ReplicationController: ${e.message}`);
    throw e;
  }
}

/**
 * ReplicationController: the v1 defaults (selector and labels from the template, one replica, the
 * PodSpec defaults of the template), `ValidateReplicationController` with the whole pod template,
 * `/status` and `/scale` (pkg/registry/core/replicationcontroller).
 */
export const ReplicationControllerKind = defineKind<ReplicationController>({
  group: '',
  kind: 'ReplicationController',
  plural: 'replicationcontrollers',
  shortNames: ['rc'],
  categories: ['all'],
  scope: 'Namespaced',
  // Generation 1 on create, one more for each change of the spec (rcStrategy.PrepareForUpdate).
  generation: specGeneration(ReplicationControllerSchema),
  versions: [lazyVersion('v1', ReplicationControllerSchema, { storage: true })],
  statusSubresource: true,
  scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector', labelSelectorIsMap: true },
  // The rules check required fields in code, with Kubernetes' own paths and messages.
  schemaRequired: false,
  printerColumns: [
    { name: 'Desired', type: 'integer', value: (rc) => rc.spec?.replicas ?? 0 },
    { name: 'Current', type: 'integer', value: (rc) => rc.status?.replicas ?? 0 },
    { name: 'Ready', type: 'integer', value: (rc) => rc.status?.readyReplicas ?? 0 },
    { name: 'Age', type: 'date', value: (rc) => rc.metadata?.creationTimestamp },
    { name: 'Containers', type: 'string', priority: 1, value: (rc) => containerCells(rc.spec?.template?.spec?.containers).names },
    { name: 'Images', type: 'string', priority: 1, value: (rc) => containerCells(rc.spec?.template?.spec?.containers).images },
    { name: 'Selector', type: 'string', priority: 1, value: (rc) => formatLabels(rc.spec?.selector) },
  ],
  // pkg/apis/core/v1/conversion.go accepts status.replicas besides the metadata fields.
  selectableFields: { 'status.replicas': (rc) => String(rc.status?.replicas ?? 0) },
  strategy: {
    prepareForCreate(rc) {
      rc.status = { replicas: 0 };
    },
    defaults(rc) {
      defaultReplicationController(rc);
      // ReplicationControllerStatus.replicas is serialized even when 0.
      if (rc.status) rc.status.replicas ??= 0;
    },
    validate(rc, ctx) {
      // On update the spec rules run in validateUpdate; /status checks only the status.
      if (ctx.operation !== 'create') return [];
      return validateReplicationControllerSpec(withZeroValues(rc, ReplicationControllerSchema()).spec ?? {}, ctx.reservedDomain);
    },
    validateUpdate(rc, _old, ctx) {
      if (ctx.subresource === 'status') return validateReplicationControllerStatus(rc.status ?? { replicas: 0 });
      return validateReplicationControllerSpec(withZeroValues(rc, ReplicationControllerSchema()).spec ?? {}, ctx.reservedDomain);
    },
    warnings(rc, old, ctx) {
      if (ctx.subresource === 'status') return [];
      const warnings: string[] = [];
      if (!old) {
        const name = rc.metadata?.name ?? '';
        const msgs = isDNS1123Label(name);
        if (name && msgs.length) {
          warnings.push(
            `metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`,
          );
        }
      } else if (rc.metadata?.generation === old.metadata?.generation) {
        return [];
      }
      return [...warnings, ...podTemplateWarnings(rc.spec?.template, 'spec.template', ctx.reservedDomain)];
    },
  },
});
