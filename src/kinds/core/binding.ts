/** Binding (core v1): the `bindings` resource. */
import { defineKind } from '../../schema/define-kind.js';
import { Binding as BindingSchema } from '../types/core-v1.js';

/** A Binding object. */
export type Binding = BindingSchema;

/**
 * Binding: `bindings` serves only create, as Kubernetes' `BindingREST` does
 * (pkg/registry/core/pod/storage/storage.go), so discovery lists it. Kubernetes binds the pod named
 * by `metadata.name` to `target.name` and keeps no Binding; memkube does not bind the pod here: the
 * create is validated as a Binding and answered, and the object is not readable (see docs/kinds/core.md).
 */
export const BindingKind = defineKind<Binding>({
  group: '',
  kind: 'Binding',
  plural: 'bindings',
  scope: 'Namespaced',
  generation: false,
  versions: [{ name: 'v1', schema: BindingSchema, served: true, storage: true }],
  unsupportedVerbs: ['get', 'list', 'watch', 'update', 'patch', 'delete', 'deletecollection'],
});
