/** ConfigMap (core v1). */
import { defineKind } from '../../schema/define-kind.js';
import { ConfigMap as ConfigMapSchema } from '../types/core-v1.js';

/** A ConfigMap object. */
export type ConfigMap = ConfigMapSchema;

/** ConfigMap. */
export const ConfigMapKind = defineKind<ConfigMap>({
  group: '',
  kind: 'ConfigMap',
  plural: 'configmaps',
  shortNames: ['cm'],
  scope: 'Namespaced',
  versions: [{ name: 'v1', schema: ConfigMapSchema, served: true, storage: true }],
});
