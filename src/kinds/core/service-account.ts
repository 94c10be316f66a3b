/** ServiceAccount (core v1). */
import { defineKind } from '../../schema/define-kind.js';
import { ServiceAccount as ServiceAccountSchema } from '../types/core-v1.js';
import { serviceAccountToken } from './service-account/token.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A ServiceAccount object. */
export type ServiceAccount = ServiceAccountSchema;

/** Kubernetes keeps only the name of each `secrets` reference. */
function cleanSecretReferences(sa: ServiceAccount): void {
  if (!sa.secrets) return;
  sa.secrets = sa.secrets.map((s) => (s.name === undefined ? {} : { name: s.name }));
}

/** The deprecation warning for newly setting `<reserved domain>/enforce-mountable-secrets`. */
function mountableSecretsWarning(sa: ServiceAccount, old: Readonly<ServiceAccount> | undefined, reservedDomain: string): string[] {
  const annotation = `${reservedDomain}/enforce-mountable-secrets`;
  if (old?.metadata?.annotations && annotation in old.metadata.annotations) return [];
  if (!sa.metadata?.annotations || !(annotation in sa.metadata.annotations)) return [];
  return [`metadata.annotations[${annotation}]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets`];
}

/**
 * ServiceAccount. Validation is ObjectMeta only (done by the engine); `secrets` merge on `name`
 * (schema metadata). Which secrets a pod may mount is enforced by pod admission, not here.
 */
export const ServiceAccountKind = defineKind<ServiceAccount>({
  group: '',
  kind: 'ServiceAccount',
  plural: 'serviceaccounts',
  shortNames: ['sa'],
  scope: 'Namespaced',
  // No generation: pkg/registry/core/serviceaccount/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1', ServiceAccountSchema, { storage: true })],
  printerColumns: [{ name: 'Secrets', type: 'integer', value: (sa) => sa.secrets?.length ?? 0 }],
  deletion: { returnDeletedObject: true },
  actions: { token: serviceAccountToken },
  strategy: {
    prepareForCreate: (sa) => cleanSecretReferences(sa),
    prepareForUpdate: (sa) => cleanSecretReferences(sa),
    warnings: (sa, old, ctx) => mountableSecretsWarning(sa, old, ctx.reservedDomain),
  },
});
