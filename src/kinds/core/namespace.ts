/** Namespace (core v1, cluster-scoped). */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { forbidden } from '../../machinery/errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { validateNamespaceName } from '../../schema/validation/names.js';
import { validateFinalizerName } from '../../schema/validation/object-meta.js';
import { Namespace as NamespaceSchema } from '../types/core-v1.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A Namespace object. */
export type Namespace = NamespaceSchema;

/** The finalizer the namespace controller removes once a namespace is empty. */
export const NAMESPACE_FINALIZER = 'kubernetes';

/** Namespaces Kubernetes never lets anyone delete. */
export const IMMORTAL_NAMESPACES: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public']);

function validateSpecFinalizers(ns: Namespace, indexed: boolean): FieldError[] {
  const errors: FieldError[] = [];
  (ns.spec?.finalizers ?? []).forEach((f, i) => {
    const path = indexed ? `spec.finalizers[${i}]` : 'spec.finalizers';
    errors.push(...validateFinalizerName(f, path));
    if (!f.includes('/') && f !== NAMESPACE_FINALIZER) {
      errors.push(fieldError.invalid(path, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  });
  return errors;
}

function validatePhase(ns: Namespace): FieldError[] {
  const phase = ns.status?.phase;
  const deleting = !!ns.metadata?.deletionTimestamp;
  if (phase === 'Active' && deleting) return [fieldError.invalid('status.Phase', phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  if (phase === 'Terminating' && !deleting) return [fieldError.invalid('status.Phase', phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
  return [];
}

/** Namespace: names are DNS labels; `spec.finalizers` change only through `/finalize`, status through `/status`. */
export const NamespaceKind = defineKind<Namespace>({
  group: '',
  kind: 'Namespace',
  plural: 'namespaces',
  shortNames: ['ns'],
  scope: 'Cluster',
  // No generation: pkg/registry/core/namespace/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1', NamespaceSchema, { storage: true })],
  printerColumns: [{ name: 'Status', type: 'string', description: 'The status of the namespace', value: (ns) => ns.status?.phase }],
  nameValidator: validateNamespaceName,
  statusSubresource: true,
  unsupportedVerbs: ['deletecollection'],
  updateSubresources: {
    finalize: (body, old) => ({ ...old, spec: { ...old.spec, finalizers: body.spec?.finalizers ?? [] } }),
  },
  selectableFields: {
    'status.phase': (ns) => ns.status?.phase,
  },
  metadataFieldSelectors: ['metadata.name'],
  strategy: {
    prepareForCreate(ns) {
      const finalizers = ns.spec?.finalizers ?? [];
      ns.spec = { ...ns.spec, finalizers: finalizers.includes(NAMESPACE_FINALIZER) ? finalizers : [...finalizers, NAMESPACE_FINALIZER] };
      ns.status = { phase: 'Active' };
    },
    prepareForUpdate(ns, old, ctx) {
      // The main resource changes neither: spec.finalizers go through /finalize, status through /status.
      if (ctx.subresource) return;
      ns.spec = old.spec;
      ns.status = old.status;
    },
    defaults(ns, ctx) {
      const meta = (ns.metadata ??= {});
      if (meta.name) meta.labels = { ...meta.labels, [`${ctx.reservedDomain}/metadata.name`]: meta.name };
    },
    validate(ns, ctx) {
      return [...validateSpecFinalizers(ns, ctx.subresource === 'finalize'), ...validatePhase(ns)];
    },
  },
  deletion: {
    returnDeletedObject: true,
    finalizersPending: (ns) => (ns.spec?.finalizers?.length ?? 0) > 0,
    checkDelete(ns) {
      const name = ns.metadata?.name ?? '';
      if (IMMORTAL_NAMESPACES.has(name)) throw forbidden({ group: '', resource: 'namespaces' }, name, 'this namespace may not be deleted');
    },
    markDeleting(ns) {
      // A namespace being deleted has a deletionTimestamp but no grace period, and is Terminating.
      delete ns.metadata?.deletionGracePeriodSeconds;
      ns.status = { ...ns.status, phase: 'Terminating' };
    },
  },
});
