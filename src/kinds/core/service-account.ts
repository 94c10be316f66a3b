/** ServiceAccount (core v1). */
import { defineKind } from '../../schema/define-kind.js';
import { ServiceAccount as ServiceAccountSchema } from '../types/core-v1.js';

/** A ServiceAccount object. */
export type ServiceAccount = ServiceAccountSchema;

/** ServiceAccount. */
export const ServiceAccountKind = defineKind<ServiceAccount>({
  group: '',
  kind: 'ServiceAccount',
  plural: 'serviceaccounts',
  shortNames: ['sa'],
  scope: 'Namespaced',
  versions: [{ name: 'v1', schema: ServiceAccountSchema, served: true, storage: true }],
  deletion: { returnDeletedObject: true },
});
