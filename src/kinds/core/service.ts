/** Service (core v1). */
import { defineKind } from '../../schema/define-kind.js';
import { nameIsDNS1035Label } from '../../schema/validation/names.js';
import { Service as ServiceSchema } from '../types/core-v1.js';

/** A Service object. */
export type Service = ServiceSchema;

/** Service. */
export const ServiceKind = defineKind<Service>({
  group: '',
  kind: 'Service',
  plural: 'services',
  shortNames: ['svc'],
  categories: ['all'],
  scope: 'Namespaced',
  versions: [{ name: 'v1', schema: ServiceSchema, served: true, storage: true }],
  nameValidator: nameIsDNS1035Label,
  statusSubresource: true,
  allowCreateOnUpdate: true,
  deletion: { returnDeletedObject: true },
});
