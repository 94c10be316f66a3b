/** LimitRange (core v1). */
import { badRequest } from '../../machinery/errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { LimitRange as LimitRangeSchema } from '../types/core-v1.js';
import { QuantityDecodeError } from '../shared/resource-lists.js';
import { defaultLimitRange, validateLimitRange } from './limit-range/rules.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A LimitRange object. */
export type LimitRange = LimitRangeSchema;

/**
 * LimitRange: the Container item defaults (default from max, defaultRequest from default or min),
 * `ValidateLimitRange` on create and update, PUT creates (pkg/registry/core/limitrange). Kubernetes
 * has no table printer for it: `kubectl get` shows the default convertor's Name and Created At.
 */
export const LimitRangeKind = defineKind<LimitRange>({
  group: '',
  kind: 'LimitRange',
  plural: 'limitranges',
  shortNames: ['limits'],
  scope: 'Namespaced',
  // No generation: pkg/registry/core/limitrange/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1', LimitRangeSchema, { storage: true })],
  allowCreateOnUpdate: true,
  schemaRequired: false,
  // pkg/printers has no printer for LimitRange: the default table, Name and Created At.
  defaultTable: true,
  strategy: {
    defaults(lr) {
      try {
        defaultLimitRange(lr);
      } catch (e) {
        if (e instanceof QuantityDecodeError) throw badRequest(`LimitRange in version "v1" cannot be handled as a LimitRange: ${e.message}`);
        throw e;
      }
    },
    validate: (lr) => validateLimitRange(lr),
  },
});
