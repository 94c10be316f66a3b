/** RuntimeClass (node.k8s.io/v1, cluster-scoped). */
import { badRequest } from '../../machinery/errors.js';
import { child, fieldError, GoPrinted, index, type FieldError } from '../../machinery/field-errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { isDNS1123Label } from '../../schema/validation/names.js';
import { validateLabels } from '../../schema/validation/object-meta.js';
import { goQuote } from '../../util/go-format.js';
import { resourceRequirementsErrors } from '../shared/pod-spec/resources.js';
import { tolerationErrors } from '../shared/pod-spec/scheduling.js';
import { normalizeResourceList, QuantityDecodeError } from '../shared/resource-lists.js';
import type { Toleration } from '../types/core-v1.js';
import { RuntimeClass as RuntimeClassSchema } from '../types/node-v1.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A RuntimeClass object. */
export type RuntimeClass = RuntimeClassSchema;

/**
 * `%#v` of the internal `core.Toleration` a duplicate is reported with. A set `tolerationSeconds`
 * is a pointer Go prints as an address; memkube prints `(0xc000000000)` in its place.
 */
function goToleration(t: Toleration): GoPrinted {
  const seconds = t.tolerationSeconds === undefined ? '(*int64)(nil)' : '(*int64)(0xc000000000)';
  return new GoPrinted(
    `core.Toleration{Key:${goQuote(t.key ?? '')}, Operator:${goQuote(t.operator ?? '')}, Value:${goQuote(t.value ?? '')}, ` +
      `Effect:${goQuote(t.effect ?? '')}, TolerationSeconds:${seconds}}`,
  );
}

/** `validateTolerations` of node validation: the pod rules, then unique by key, operator, value and effect. */
function schedulingTolerationErrors(tolerations: Toleration[], path: string): FieldError[] {
  const errs = tolerationErrors(tolerations, path);
  const seen = new Set<string>();
  tolerations.forEach((t, i) => {
    const listKey = JSON.stringify([t.key ?? '', t.operator ?? '', t.value ?? '', t.effect ?? '']);
    if (seen.has(listKey)) errs.push(fieldError.duplicate(index(path, i), goToleration(t)));
    else seen.add(listKey);
  });
  return errs;
}

/** `ValidateRuntimeClass` without ObjectMeta. */
function validateRuntimeClass(rc: RuntimeClass): FieldError[] {
  const handler = rc.handler ?? '';
  const errs = isDNS1123Label(handler).map((msg) => fieldError.invalid('handler', handler, msg));
  // validateOverhead: the container resource rules over `podFixed` as limits.
  if (rc.overhead) errs.push(...resourceRequirementsErrors({ limits: rc.overhead.podFixed ?? {} }, 'overhead', new Set()));
  if (rc.scheduling) {
    const path = 'scheduling';
    if (rc.scheduling.nodeSelector) errs.push(...validateLabels(rc.scheduling.nodeSelector, child(path, 'nodeSelector')));
    errs.push(...schedulingTolerationErrors(rc.scheduling.tolerations ?? [], child(path, 'tolerations')));
  }
  return errs;
}

/**
 * RuntimeClass: a container runtime configuration pods name in `runtimeClassName`. `handler` is a
 * DNS label and never changes; `overhead.podFixed` follows the container resource rules;
 * `scheduling` holds a node selector and tolerations. PUT creates; updates need a
 * resourceVersion; no generation.
 */
export const RuntimeClassKind = defineKind<RuntimeClass>({
  group: 'node.{api_domain}',
  kind: 'RuntimeClass',
  plural: 'runtimeclasses',
  scope: 'Cluster',
  // No generation: pkg/registry/node/runtimeclass/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1', RuntimeClassSchema, { storage: true })],
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
  // handler is checked in code: a missing one is Go's "", which is not a DNS label.
  schemaRequired: false,
  // ValidateImmutableField(new.Handler, old.Handler): "" when absent, the new value shown.
  immutableFields: [{ path: 'handler', zero: '' }],
  printerColumns: [{ name: 'Handler', type: 'string', value: (rc) => rc.handler ?? '' }],
  strategy: {
    defaults(rc) {
      // handler is a Go string without omitempty: always serialized.
      rc.handler ??= '';
      try {
        normalizeResourceList(rc.overhead?.podFixed, false);
      } catch (e) {
        if (e instanceof QuantityDecodeError) throw badRequest(`RuntimeClass in version "v1" cannot be handled as a RuntimeClass: ${e.message}`);
        throw e;
      }
    },
    validate: (rc) => validateRuntimeClass(rc),
  },
});
