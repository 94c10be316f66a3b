/** Secret (core v1). */
import { defineKind } from '../../schema/define-kind.js';
import { Secret as SecretSchema } from '../types/core-v1.js';

/** A Secret object. */
export type Secret = SecretSchema;

/** Secret. */
export const SecretKind = defineKind<Secret>({
  group: '',
  kind: 'Secret',
  plural: 'secrets',
  scope: 'Namespaced',
  versions: [{ name: 'v1', schema: SecretSchema, served: true, storage: true }],
  selectableFields: { type: (s) => s.type },
});
