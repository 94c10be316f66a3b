/** CustomResourceDefinition (apiextensions.k8s.io/v1, cluster). */
import { defineKind, type KindDefinition } from '../../schema/define-kind.js';
import { CustomResourceDefinition as CustomResourceDefinitionSchema } from '../types/apiextensions-v1.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { crdValidationHooks } from './crd-hooks.js';
import {
  customResourceDefinitionWarnings,
  defaultCustomResourceDefinition,
  validateCustomResourceDefinition,
  validateCustomResourceDefinitionStatusUpdate,
  validateCustomResourceDefinitionUpdate,
  type CrdValidationHooks,
} from './crd/index.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** The finalizer a deleted definition keeps until its custom resources are gone. */
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

/** A CustomResourceDefinition object. */
export type CustomResourceDefinition = CustomResourceDefinitionSchema;

/** The storage version's name, recorded in `status.storedVersions` as the real server records it. */
function storageVersionOf(crd: CustomResourceDefinition): string | undefined {
  return crd.spec?.versions?.find((v) => v.storage)?.name;
}

/**
 * The CustomResourceDefinition kind, its rules using `hooks` (CEL compilation of
 * `x-kubernetes-validations`, validation of schema defaults): stored and listed, so clients that
 * look for definitions (kubectl's validation asks for them before it sends an object of an unknown
 * kind) get real answers. A create resets the status and records the storage version in
 * `status.storedVersions`; generation follows spec changes; the v1 defaults and Kubernetes'
 * validation of definitions apply (`crd/`). Defining a kind does not serve it yet.
 */
export function defineCustomResourceDefinitionKind(hooks: CrdValidationHooks = {}): KindDefinition<CustomResourceDefinition> {
  return defineKind<CustomResourceDefinition>({
    group: 'apiextensions.{api_domain}',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    scope: 'Cluster',
    versions: [lazyVersion('v1', CustomResourceDefinitionSchema, { storage: true })],
    statusSubresource: true,
    standardFinalizerNames: false,
    // Kubernetes decodes absent fields to zero values and reports them through its own rules
    // (`spec.group: Required value`), never as missing JSON fields.
    schemaRequired: false,
    generation: specGeneration(CustomResourceDefinitionSchema),
    // apiextensions-apiserver prints definitions with the default table: Name and Created At.
    defaultTable: true,
    strategy: {
      prepareForCreate(crd) {
        const stored = storageVersionOf(crd);
        crd.status = { ...(stored ? { storedVersions: [stored] } : {}) };
      },
      prepareForUpdate(crd, old, ctx) {
        if (ctx.subresource === 'status') return;
        const stored = storageVersionOf(crd);
        const recorded = [...(old.status?.storedVersions ?? [])];
        if (stored && !recorded.includes(stored)) recorded.push(stored);
        if (recorded.length) crd.status = { ...(crd.status ?? {}), storedVersions: recorded };
      },
      defaults(crd) {
        defaultCustomResourceDefinition(crd);
        crd.status ??= {};
        crd.status.acceptedNames ??= { plural: '', kind: '' };
      },
      // An update runs `validateUpdate` and `validate`: the update rules cover everything, relaxed.
      validate: (crd, ctx) => (ctx.operation === 'create' ? validateCustomResourceDefinition(crd, hooks) : []),
      validateUpdate: (crd, old, ctx) =>
        ctx.subresource === 'status' ? validateCustomResourceDefinitionStatusUpdate(crd) : validateCustomResourceDefinitionUpdate(crd, old, hooks),
      warnings: (crd, old, ctx) => (ctx.subresource === 'status' ? [] : customResourceDefinitionWarnings(crd, old)),
    },
    // The first delete only marks a definition: it gets the cleanup finalizer and a Terminating
    // condition, and the finalizer controller deletes its custom resources before it goes
    // (apiextensions-apiserver pkg/registry/customresourcedefinition/etcd.go `Delete`).
    deletion: {
      finalizersPending: (crd) => crd.metadata?.deletionTimestamp === undefined,
      // That Delete updates the object itself: no generation bump, as the generic store would do.
      markKeepsGeneration: true,
      markDeleting(crd) {
        const finalizers = crd.metadata?.finalizers ?? [];
        if (!finalizers.includes(CLEANUP_FINALIZER)) crd.metadata = { ...crd.metadata, finalizers: [...finalizers, CLEANUP_FINALIZER] };
        const conditions = (crd.status?.conditions ?? []).filter((c) => c.type !== 'Terminating');
        const old = crd.status?.conditions?.find((c) => c.type === 'Terminating');
        const time = old?.status === 'True' ? old.lastTransitionTime : crd.metadata?.deletionTimestamp;
        crd.status = {
          ...crd.status,
          conditions: [
            ...conditions,
            {
              type: 'Terminating',
              status: 'True',
              ...(time !== undefined ? { lastTransitionTime: time } : {}),
              reason: 'InstanceDeletionPending',
              message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
            },
          ],
        };
      },
    },
  });
}

/**
 * The CustomResourceDefinition kind as a cluster serves it: CEL rules compiled and their costs
 * estimated, defaults validated against their schema, patterns checked as Go's RE2 does.
 */
export const CustomResourceDefinitionKind = defineCustomResourceDefinitionKind(crdValidationHooks);
