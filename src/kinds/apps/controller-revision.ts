/** ControllerRevision (apps/v1). */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { jsonEqual } from '../../util/json-equal.js';
import { defineKind } from '../../schema/define-kind.js';
import { immutableFieldError } from '../../schema/validation/immutable-fields.js';
import { validateNonnegativeField } from '../../schema/validation/object-meta.js';
import { ControllerRevision as ControllerRevisionSchema } from '../types/apps-v1.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A ControllerRevision object. */
export type ControllerRevision = ControllerRevisionSchema;

/** `ValidateControllerRevision` without ObjectMeta (the engine checks that). */
function validateControllerRevision(rev: ControllerRevision): FieldError[] {
  const errs: FieldError[] = [];
  if (rev.data === undefined || rev.data === null) errs.push(fieldError.required('data', 'data is mandatory'));
  errs.push(...validateNonnegativeField(rev.revision ?? 0, 'revision'));
  return errs;
}

/** The CONTROLLER column: `<kind>.<group>/<name>` of the controlling owner, `<none>` without one. */
function controllerOf(rev: Readonly<ControllerRevision>): string {
  const refs = (rev.metadata?.ownerReferences ?? []) as { apiVersion?: string; kind?: string; name?: string; controller?: boolean }[];
  const ref = refs.find((r) => r.controller);
  if (!ref) return '<none>';
  const group = ref.apiVersion?.includes('/') ? ref.apiVersion.slice(0, ref.apiVersion.indexOf('/')) : '';
  return `${(ref.kind ?? '').toLowerCase()}${group ? `.${group}` : ''}/${ref.name ?? ''}`;
}

/** ControllerRevision: `data` is required and immutable, `revision` is not negative (Kubernetes v1.36). */
export const ControllerRevisionKind = defineKind<ControllerRevision>({
  group: 'apps',
  kind: 'ControllerRevision',
  plural: 'controllerrevisions',
  scope: 'Namespaced',
  // No generation: pkg/registry/apps/controllerrevision/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1', ControllerRevisionSchema, { storage: true })],
  // `revision` is required by the schema but Kubernetes validates it in code (a missing one is 0).
  schemaRequired: false,
  printerColumns: [
    { name: 'Controller', type: 'string', value: (r) => controllerOf(r) },
    { name: 'Revision', type: 'integer', value: (r) => r.revision ?? 0 },
    { name: 'Age', type: 'date', value: (r) => r.metadata?.creationTimestamp },
  ],
  strategy: {
    defaults(rev) {
      // Go serializes `revision` (int64, no omitempty) even when it is 0.
      rev.revision ??= 0;
    },
    validate(rev, ctx) {
      // On update the same rules run in validateUpdate, before the immutability rule, as Kubernetes orders them.
      return ctx.operation === 'create' ? validateControllerRevision(rev) : [];
    },
    validateUpdate(rev, old) {
      // In code rather than `immutableFields`: `ValidateControllerRevisionUpdate` reports it after
      // the revision's own rules, and declared fields are reported before them.
      const errs = validateControllerRevision(rev);
      if (!jsonEqual(rev.data, old.data)) errs.push(immutableFieldError('data', rev.data ?? null));
      return errs;
    },
  },
});
