/** Binding (core v1): the legacy `bindings` resource, which binds the pod the binding names. */
import { defineKind } from '../../schema/define-kind.js';
import { Binding as BindingSchema } from '../types/core-v1.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A Binding object. */
export type Binding = BindingSchema;

/**
 * Binding: `bindings` serves only create, as Kubernetes' `BindingREST` does
 * (pkg/registry/core/pod/storage/storage.go): the pod named by `metadata.name` is bound to
 * `target.name`, exactly as a POST of the same Binding to the pod's `binding` subresource does, and
 * no Binding is kept.
 */
export const BindingKind = defineKind<Binding>({
  group: '',
  kind: 'Binding',
  plural: 'bindings',
  scope: 'Namespaced',
  generation: false,
  versions: [lazyVersion('v1', BindingSchema, { storage: true })],
  async review(binding, ctx) {
    const res = await ctx.request({
      verb: 'create',
      resource: { group: '', version: 'v1', resource: 'pods' },
      subresource: 'binding',
      namespace: binding.metadata?.namespace,
      name: binding.metadata?.name ?? '',
      body: binding,
      writeOptions: ctx.dryRun ? { dryRun: ['All'] } : undefined,
    });
    return res.body as Binding;
  },
});
