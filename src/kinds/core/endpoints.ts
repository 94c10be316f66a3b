/** Endpoints (core v1). */
import { defineKind } from '../../schema/define-kind.js';
import { Endpoints as EndpointsSchema } from '../types/core-v1.js';
import { formatEndpoints, validateEndpoints } from './endpoints/validation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** An Endpoints object. */
export type Endpoints = EndpointsSchema;

/**
 * Endpoints: the TCP default of ports, `ValidateEndpoints` on create and update, PUT creates, and the deprecation warning a
 * v1.33+ server answers every request with (pkg/registry/core/endpoint).
 */
export const EndpointsKind = defineKind<Endpoints>({
  group: '',
  kind: 'Endpoints',
  plural: 'endpoints',
  singular: 'endpoints',
  shortNames: ['ep'],
  scope: 'Namespaced',
  // No generation: pkg/registry/core/endpoint/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1', EndpointsSchema, { storage: true })],
  allowCreateOnUpdate: true,
  schemaRequired: false,
  deprecationWarning: 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice',
  printerColumns: [
    { name: 'Endpoints', type: 'string', value: (ep) => formatEndpoints(ep) },
    { name: 'Age', type: 'date', value: (ep) => ep.metadata?.creationTimestamp },
  ],
  strategy: {
    // SetDefaults_EndpointPort.
    defaults(ep) {
      for (const ss of ep.subsets ?? []) for (const port of ss.ports ?? []) if (!port.protocol) port.protocol = 'TCP';
    },
    validate: (ep) => validateEndpoints(ep),
  },
});
