/** APIService (apiregistration/v1, cluster-scoped). */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { inclusiveRangeError, isDNS1035Label, isDNS1123Subdomain, isPathSegmentName, validatePathSegmentName } from '../../schema/validation/names.js';
import { base64DecodedLength } from '../shared/data-keys.js';
import { conditionReasonErrors } from '../shared/conditions.js';
import { APIService as APIServiceSchema } from '../types/apiregistration-v1.js';
import { validateCABundle } from './ca-bundle.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** An APIService object. */
export type APIService = APIServiceSchema;

const CONDITION_STATUSES = ['True', 'False', 'Unknown'] as const;

function validateSpec(api: APIService): FieldError[] {
  const spec = api.spec ?? { groupPriorityMinimum: 0, versionPriority: 0 };
  const group = spec.group ?? '';
  const version = spec.version ?? '';
  const errors: FieldError[] = [];
  const name = api.metadata?.name ?? '';
  const required = `${version}.${group}`;
  if (name && isPathSegmentName(name).length === 0 && name !== required) {
    errors.push(fieldError.invalid('metadata.name', name, `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(required)}`));
  }
  if (group === '' && version !== 'v1') {
    errors.push(fieldError.required('spec.group', 'only v1 may have an empty group and it better be legacy kube'));
  }
  if (group !== '') for (const msg of isDNS1123Subdomain(group)) errors.push(fieldError.invalid('spec.group', group, msg));
  for (const msg of isDNS1035Label(version)) errors.push(fieldError.invalid('spec.version', version, msg));
  const gpm = spec.groupPriorityMinimum ?? 0;
  if (gpm <= 0 || gpm > 20000) errors.push(fieldError.invalid('spec.groupPriorityMinimum', gpm, 'must be positive and less than 20000'));
  const vp = spec.versionPriority ?? 0;
  if (vp <= 0 || vp > 1000) errors.push(fieldError.invalid('spec.versionPriority', vp, 'must be positive and less than 1000'));

  const caBytes = spec.caBundle ? base64DecodedLength(spec.caBundle) : 0;
  const skip = spec.insecureSkipTLSVerify ?? false;
  // Not checked by Kubernetes v1.36; a PEM CA bundle, see ./ca-bundle.ts.
  errors.push(...validateCABundle(spec.caBundle, 'spec.caBundle'));
  const svc = spec.service;
  if (!svc) {
    if (caBytes !== 0) errors.push(fieldError.invalid('spec.caBundle', `${caBytes} bytes`, 'local APIServices may not have a caBundle'));
    if (skip) errors.push(fieldError.invalid('spec.insecureSkipTLSVerify', skip, 'local APIServices may not have insecureSkipTLSVerify'));
    return errors;
  }
  if (!svc.namespace) errors.push(fieldError.required('spec.service.namespace'));
  if (!svc.name) errors.push(fieldError.required('spec.service.name'));
  const port = svc.port ?? 0;
  if (port < 1 || port > 65535) errors.push(fieldError.invalid('spec.service.port', port, `port is not valid: ${inclusiveRangeError(1, 65535)}`));
  if (skip && caBytes > 0) errors.push(fieldError.invalid('spec.insecureSkipTLSVerify', skip, 'may not be true if caBundle is present'));
  return errors;
}

function validateStatus(api: APIService): FieldError[] {
  return (api.status?.conditions ?? []).flatMap((c, i) => {
    const errs: FieldError[] = [];
    if (!(CONDITION_STATUSES as readonly string[]).includes(c.status))
      errs.push(fieldError.notSupported(`status.conditions[${i}].status`, c.status, CONDITION_STATUSES));
    // Kubernetes v1.36 does not check an APIService condition's reason; memkube's "one-word
    // CamelCase" is enforced with metav1.Condition's reason rule and message.
    if (c.reason) for (const m of conditionReasonErrors(c.reason)) errs.push(fieldError.invalid(`status.conditions[${i}].reason`, c.reason, m));
    return errs;
  });
}

/**
 * APIService: the name is `<version>.<group>`; priorities in range; a non-empty `caBundle` is a PEM
 * bundle of certificates; a service reference needs a namespace, a name and a port (default 443);
 * status (conditions merged on `type`, status True/False/Unknown, reason one-word CamelCase) through
 * `/status`; updates need a resourceVersion.
 */
export const APIServiceKind = defineKind<APIService>({
  group: 'apiregistration.{api_domain}',
  kind: 'APIService',
  plural: 'apiservices',
  scope: 'Cluster',
  // No generation: kube-aggregator's pkg/registry/apiservice/strategy.go never sets it.
  generation: false,
  categories: ['api-extensions'],
  versions: [lazyVersion('v1', APIServiceSchema, { storage: true })],
  nameValidator: validatePathSegmentName,
  statusSubresource: true,
  schemaRequired: false,
  allowUnconditionalUpdate: false,
  printerColumns: [
    {
      name: 'Service',
      type: 'string',
      description: 'The service backing the APIService',
      value: (a) => (a.spec?.service ? `${a.spec.service.namespace ?? ''}/${a.spec.service.name ?? ''}` : 'Local'),
    },
    {
      name: 'Available',
      type: 'string',
      description: 'Whether the APIService is available',
      value: (a) => {
        const c = a.status?.conditions?.find((x) => x.type === 'Available');
        if (!c) return 'Unknown';
        return c.status === 'True' ? 'True' : `${c.status} (${c.reason ?? ''})`;
      },
    },
  ],
  strategy: {
    defaults(api) {
      // The status is a Go struct, not a pointer: the real server always serializes it, `{}` when empty.
      api.status ??= {};
      if (api.spec?.service && api.spec.service.port === undefined) api.spec.service.port = 443;
    },
    validate: (api, ctx) => (ctx.subresource === 'status' ? validateStatus(api) : validateSpec(api)),
  },
});
