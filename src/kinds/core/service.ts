/** Service (core v1). */
import { defineKind } from '../../schema/define-kind.js';
import { nameIsDNSLabel } from '../../schema/validation/names.js';
import { Service as ServiceSchema } from '../types/core-v1.js';
import { allocateForCreate, allocateForUpdate } from './service/allocate.js';
import { ServiceAllocator } from './service/allocator.js';
import { defaultService, dropTypeDependentFields, normalizeClusterIPs, patchAllocatedValues } from './service/defaults.js';
import { validateService } from './service/rules.js';
import { validateServiceUpdate } from './service/update-rules.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A Service object. */
export type Service = ServiceSchema;

/**
 * Service. Names are DNS-1123 labels (RelaxedServiceNameValidation is on by default in 1.36).
 * A create gets its IP family fields, a cluster IP from 10.96.0.0/12 and node ports before it is
 * validated, as Kubernetes' Service storage does; status starts as `{loadBalancer: {}}`.
 */
export const ServiceKind = defineKind<Service>({
  group: '',
  kind: 'Service',
  plural: 'services',
  shortNames: ['svc'],
  categories: ['all'],
  scope: 'Namespaced',
  // No generation: pkg/registry/core/service/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1', ServiceSchema, { storage: true })],
  printerColumns: [
    { name: 'Type', type: 'string', description: 'The type of the service.', value: (s) => s.spec?.type },
    { name: 'Cluster-IP', type: 'string', description: 'The cluster-IP of the service.', value: (s) => s.spec?.clusterIP },
    {
      name: 'External-IP',
      type: 'string',
      description: 'The external IP of the service.',
      value: (s) => {
        const ips = [...(s.status?.loadBalancer?.ingress ?? []).map((i) => i.ip ?? i.hostname ?? ''), ...(s.spec?.externalIPs ?? [])].filter(Boolean);
        if (ips.length) return ips.join(',');
        if (s.spec?.type === 'LoadBalancer') return '<pending>';
        if (s.spec?.type === 'ExternalName') return s.spec.externalName;
        return '<none>';
      },
    },
    {
      name: 'Port(s)',
      type: 'string',
      description: 'The port(s) of the service.',
      value: (s) =>
        (s.spec?.ports ?? []).map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol ?? 'TCP'}` : `${p.port}/${p.protocol ?? 'TCP'}`)).join(',') ||
        '<none>',
    },
    { name: 'Age', type: 'date', value: (s) => s.metadata?.creationTimestamp },
    {
      name: 'Selector',
      type: 'string',
      priority: 1,
      description: 'The label selector of the service.',
      value: (s) =>
        Object.entries(s.spec?.selector ?? {})
          .map(([k, v]) => `${k}=${v}`)
          .join(',') || '<none>',
    },
  ],
  nameValidator: nameIsDNSLabel,
  statusSubresource: true,
  allowCreateOnUpdate: true,
  // Kubernetes checks Service fields in code (e.g. a missing port is "must be between 1 and 65535").
  schemaRequired: false,
  deletion: { returnDeletedObject: true },
  strategy: {
    async prepareForCreate(svc, ctx) {
      // Kubernetes applies the v1 defaults while decoding, before anything below.
      defaultService(svc);
      svc.status = { loadBalancer: {} };
      normalizeClusterIPs(svc.spec!, undefined);
      await allocateForCreate(svc, ctx);
    },
    async prepareForUpdate(svc, old, ctx) {
      // A /status write keeps the stored spec; there is nothing to allocate or drop.
      if (ctx.subresource) return;
      defaultService(svc);
      patchAllocatedValues(svc.spec!, old.spec ?? {});
      normalizeClusterIPs(svc.spec!, old.spec ?? {});
      dropTypeDependentFields(svc, old);
      await allocateForUpdate(svc, old, ctx);
    },
    defaults: (svc) => defaultService(svc),
    async validate(svc, ctx) {
      // A generated name is known only now: the allocator needs it to tell live holders from gone ones.
      if (ctx.operation === 'create') await ServiceAllocator.bindName(ctx, svc);
      return validateService(svc);
    },
    validateUpdate: (svc, old) => validateServiceUpdate(svc, old),
  },
});
