/** Ingress (networking.k8s.io/v1, namespaced). */
import { defineKind } from '../../schema/define-kind.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { Ingress as IngressSchema } from '../types/networking-v1.js';
import { validateIngressCreate, validateIngressStatus, validateIngressUpdate } from './ingress/validation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** An Ingress object. */
export type Ingress = IngressSchema;

/** `formatHosts` of pkg/printers/internalversion/printers.go: up to three hosts, `*` when none. */
function formatHosts(ing: Readonly<Ingress>): string {
  const rules = ing.spec?.rules ?? [];
  const list: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (list.length === 3) more = true;
    if (!more && rule.host) list.push(rule.host);
  }
  if (list.length === 0) return '*';
  const ret = list.join(',');
  return more ? `${ret} + ${rules.length - 3} more...` : ret;
}

/** `ingressLoadBalancerStatusStringer` (server-side tables print it wide: not clipped). */
function formatAddress(ing: Readonly<Ingress>): string {
  const set = new Set<string>();
  for (const lb of ing.status?.loadBalancer?.ingress ?? []) {
    if (lb.ip) set.add(lb.ip);
    else if (lb.hostname) set.add(lb.hostname);
  }
  return [...set].sort().join(',');
}

/**
 * Ingress: the v1 validation of Kubernetes v1.36 (rules, hosts, paths, backends, TLS, the class
 * annotation), status through `/status`, generation bumped by spec changes.
 */
export const IngressKind = defineKind<Ingress>({
  group: 'networking.{api_domain}',
  kind: 'Ingress',
  plural: 'ingresses',
  shortNames: ['ing'],
  scope: 'Namespaced',
  // 1 on create, +1 when the spec changes (pkg/registry/networking/ingress/strategy.go).
  generation: specGeneration(IngressSchema),
  versions: [lazyVersion('v1', IngressSchema, { storage: true })],
  statusSubresource: true,
  // pathType and service.name are checked in code with Kubernetes' messages.
  schemaRequired: false,
  printerColumns: [
    {
      name: 'Class',
      type: 'string',
      description: 'The name of the IngressClass resource that should be used for additional configuration',
      value: (i) => i.spec?.ingressClassName ?? '<none>',
    },
    { name: 'Hosts', type: 'string', description: 'Hosts that incoming requests are matched against before the ingress rule', value: formatHosts },
    { name: 'Address', type: 'string', description: 'Address is a list containing ingress points for the load-balancer', value: formatAddress },
    { name: 'Ports', type: 'string', description: 'Ports of TLS configurations that open', value: (i) => ((i.spec?.tls ?? []).length ? '80, 443' : '80') },
  ],
  strategy: {
    defaults(ing) {
      // IngressStatus and its LoadBalancer are Go structs: always serialized.
      ing.status ??= {};
      ing.status.loadBalancer ??= {};
    },
    validate(ing, ctx) {
      return ctx.operation === 'create' ? validateIngressCreate(ing, ctx.reservedDomain) : [];
    },
    validateUpdate(ing, old, ctx) {
      if (ctx.subresource === 'status') return validateIngressStatus(ing, old);
      return validateIngressUpdate(ing, old);
    },
  },
});
