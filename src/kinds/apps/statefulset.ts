/** StatefulSet (apps/v1). */
import { badRequest } from '../../machinery/errors.js';
import { defineKind, type KindContext } from '../../schema/define-kind.js';
import { dns1123LabelNameValidator } from '../../schema/validation/names.js';
import { StatefulSet as StatefulSetSchema } from '../types/apps-v1.js';
import { withZeroValues } from '../shared/zero-values.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { QuantityDecodeError } from '../shared/resource-lists.js';
import { podCreateWarnings } from '../shared/pod-spec/warnings.js';
import { applyStatefulSetDefaults, MAX_UNAVAILABLE_STATEFUL_SET } from './statefulset/defaults.js';
import { validateStatefulSetSpec, validateStatefulSetStatusUpdate, validateStatefulSetUpdate } from './statefulset/validation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A StatefulSet object. */
export type StatefulSet = StatefulSetSchema;

/** Decode-time defaults; a malformed quantity fails the request as Kubernetes' decoder does (400). */
function defaultStatefulSet(sts: StatefulSet, ctx: KindContext): void {
  try {
    applyStatefulSetDefaults(sts, ctx.featureEnabled(MAX_UNAVAILABLE_STATEFUL_SET));
  } catch (e) {
    if (e instanceof QuantityDecodeError) throw badRequest(`StatefulSet in version "v1" cannot be handled as a StatefulSet: ${e.message}`);
    throw e;
  }
}

/** The status a new StatefulSet gets: the zero status as the server serializes it. */
function zeroStatus(): NonNullable<StatefulSet['status']> {
  return { replicas: 0, availableReplicas: 0 };
}

/** The rules of a StatefulSet as it would be after the write (zero values filled). */
function specRules(sts: StatefulSet, ctx: KindContext) {
  const full = withZeroValues(sts, StatefulSetSchema());
  // The selector is a pointer in Go: a missing one is nil (Required), not an empty selector.
  const spec = { ...full.spec!, selector: sts.spec?.selector as NonNullable<StatefulSet['spec']>['selector'] };
  return validateStatefulSetSpec(spec, ctx.reservedDomain);
}

/**
 * StatefulSet: the v1 defaults (Pod defaults for the template, claim defaults for the claim
 * templates), validation and the update rule of Kubernetes v1.36, `/status` and `/scale`.
 */
export const StatefulSetKind = defineKind<StatefulSet>({
  group: 'apps',
  kind: 'StatefulSet',
  plural: 'statefulsets',
  shortNames: ['sts'],
  categories: ['all'],
  scope: 'Namespaced',
  // Generation 1 on create, one more for each change of the spec (pkg/registry/apps/statefulset/strategy.go).
  generation: specGeneration(StatefulSetSchema),
  versions: [lazyVersion('v1', StatefulSetSchema, { storage: true })],
  nameValidator: dns1123LabelNameValidator,
  statusSubresource: true,
  scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' },
  // The rules check required fields in code, with Kubernetes' own paths and messages.
  schemaRequired: false,
  printerColumns: [
    { name: 'Ready', type: 'string', value: (s) => `${s.status?.readyReplicas ?? 0}/${s.spec?.replicas ?? 0}` },
    { name: 'Age', type: 'date', value: (s) => s.metadata?.creationTimestamp },
    { name: 'Containers', type: 'string', priority: 1, value: (s) => (s.spec?.template?.spec?.containers ?? []).map((c) => c.name).join(',') },
    { name: 'Images', type: 'string', priority: 1, value: (s) => (s.spec?.template?.spec?.containers ?? []).map((c) => c.image ?? '').join(',') },
  ],
  strategy: {
    prepareForCreate(sts, ctx) {
      sts.status = zeroStatus();
      defaultStatefulSet(sts, ctx);
      dropDisabledFields(sts, undefined, ctx);
    },
    prepareForUpdate(sts, old, ctx) {
      dropDisabledFields(sts, old, ctx);
    },
    defaults(sts, ctx) {
      defaultStatefulSet(sts, ctx);
      // The status, once written, always carries the fields Go serializes without omitempty.
      if (sts.status) {
        sts.status.replicas ??= 0;
        sts.status.availableReplicas ??= 0;
      }
    },
    validate(sts, ctx) {
      // On update the spec rules run in validateUpdate, before the update rule, as Kubernetes orders them.
      if (ctx.operation !== 'create') return [];
      return specRules(sts, ctx);
    },
    validateUpdate(sts, old, ctx) {
      if (ctx.subresource === 'status') return validateStatefulSetStatusUpdate(sts, old as StatefulSet);
      return [
        ...specRules(sts, ctx),
        ...validateStatefulSetUpdate(withZeroValues(sts, StatefulSetSchema()), withZeroValues(old as StatefulSet, StatefulSetSchema())),
      ];
    },
    warnings(sts, old, ctx) {
      if (ctx.subresource === 'status') return [];
      if (old && sts.metadata?.generation === old.metadata?.generation) return revisionHistoryWarnings(sts);
      const template = sts.spec?.template;
      const podWarnings = template?.spec
        ? podCreateWarnings({ metadata: template.metadata ?? {}, spec: template.spec }, ctx.reservedDomain).map((w) =>
            w.replace(/^spec\./, 'spec.template.spec.').replace(/^metadata\./, 'spec.template.metadata.'),
          )
        : [];
      return [...podWarnings, ...revisionHistoryWarnings(sts)];
    },
  },
});

/** `dropStatefulSetDisabledFields`: without its gate, a new `maxUnavailable` is dropped unless the stored object uses it. */
function dropDisabledFields(sts: StatefulSet, old: Readonly<StatefulSet> | undefined, ctx: KindContext): void {
  if (ctx.featureEnabled(MAX_UNAVAILABLE_STATEFUL_SET)) return;
  if (old?.spec?.updateStrategy?.rollingUpdate?.maxUnavailable !== undefined) return;
  delete sts.spec?.updateStrategy?.rollingUpdate?.maxUnavailable;
}

function revisionHistoryWarnings(sts: StatefulSet): string[] {
  const limit = sts.spec?.revisionHistoryLimit;
  return limit !== undefined && limit < 0 ? ['spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended'] : [];
}
