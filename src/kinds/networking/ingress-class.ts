/** IngressClass (networking.k8s.io/v1, cluster-scoped). */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { immutableFieldError } from '../../schema/validation/immutable-fields.js';
import { isDNS1123Label, isDNS1123Subdomain, isPathSegmentName } from '../../schema/validation/names.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { IngressClass as IngressClassSchema } from '../types/networking-v1.js';
import { isDomainPrefixedPath } from './formats.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** An IngressClass object. */
export type IngressClass = IngressClassSchema;

const MAX_CONTROLLER_LENGTH = 250;
const SCOPES = ['Cluster', 'Namespace'];

/** `validateIngressClassParametersReference`. */
function validateParameters(params: NonNullable<IngressClass['spec']>['parameters']): FieldError[] {
  if (!params) return [];
  const p = 'spec.parameters';
  const errs: FieldError[] = [];
  if (params.apiGroup !== undefined && params.apiGroup !== null) {
    errs.push(...isDNS1123Subdomain(params.apiGroup).map((m) => fieldError.invalid(`${p}.apiGroup`, params.apiGroup, m)));
  }
  for (const f of ['kind', 'name'] as const) {
    const v = params[f];
    if (!v) errs.push(fieldError.required(`${p}.${f}`));
    else errs.push(...isPathSegmentName(v).map((m) => fieldError.invalid(`${p}.${f}`, v, m)));
  }
  if (params.scope === undefined || params.scope === null) {
    errs.push(fieldError.required(`${p}.scope`));
    return errs;
  }
  if (!SCOPES.includes(params.scope)) {
    errs.push(fieldError.notSupported(`${p}.scope`, params.scope, SCOPES));
  } else if (params.scope === 'Namespace') {
    if (params.namespace === undefined || params.namespace === null)
      errs.push(fieldError.required(`${p}.namespace`, "`parameters.scope` is set to 'Namespace'"));
    else errs.push(...isDNS1123Label(params.namespace).map((m) => fieldError.invalid(`${p}.namespace`, params.namespace, m)));
  } else if (params.namespace !== undefined && params.namespace !== null) {
    errs.push(fieldError.forbidden(`${p}.namespace`, "`parameters.scope` is set to 'Cluster'"));
  }
  return errs;
}

/** `validateIngressClassSpec`. */
function validateSpec(ic: IngressClass): FieldError[] {
  const errs: FieldError[] = [];
  const controller = ic.spec?.controller ?? '';
  if (!controller) {
    errs.push(fieldError.required('spec.controller'));
  } else {
    if (Buffer.byteLength(controller, 'utf8') > MAX_CONTROLLER_LENGTH) errs.push(fieldError.tooLong('spec.controller', MAX_CONTROLLER_LENGTH));
    errs.push(...isDomainPrefixedPath('spec.controller', controller));
  }
  errs.push(...validateParameters(ic.spec?.parameters));
  return errs;
}

/** `printIngressClass`'s Parameters cell: `Kind[.apiGroup]/name`. */
function formatParameters(ic: Readonly<IngressClass>): string {
  const p = ic.spec?.parameters;
  if (!p) return '<none>';
  return `${p.kind}${p.apiGroup !== undefined && p.apiGroup !== null ? `.${p.apiGroup}` : ''}/${p.name}`;
}

/** IngressClass: controller required and immutable, parameters' scope rules, scope defaulted to Cluster. */
export const IngressClassKind = defineKind<IngressClass>({
  group: 'networking.{api_domain}',
  kind: 'IngressClass',
  plural: 'ingressclasses',
  scope: 'Cluster',
  // 1 on create, +1 when the spec changes (pkg/registry/networking/ingressclass/strategy.go).
  generation: specGeneration(IngressClassSchema),
  versions: [lazyVersion('v1', IngressClassSchema, { storage: true })],
  schemaRequired: false,
  printerColumns: [
    { name: 'Controller', type: 'string', description: 'Controller that is responsible for handling this class', value: (ic) => ic.spec?.controller ?? '' },
    { name: 'Parameters', type: 'string', description: 'A reference to a resource with additional parameters', value: formatParameters },
  ],
  strategy: {
    defaults(ic) {
      // SetDefaults_IngressClass.
      const params = ic.spec?.parameters;
      if (params && (params.scope === undefined || params.scope === null)) params.scope = 'Cluster';
    },
    validate: (ic, ctx) => (ctx.operation === 'create' ? validateSpec(ic) : []),
    validateUpdate(ic, old) {
      // ValidateIngressClassUpdate: the immutable controller first, then the whole spec again.
      const errs: FieldError[] = [];
      const controller = ic.spec?.controller ?? '';
      if (controller !== (old.spec?.controller ?? '')) errs.push(immutableFieldError('spec.controller', controller));
      return [...errs, ...validateSpec(ic)];
    },
  },
});
