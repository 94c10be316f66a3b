/** ConfigMap (core v1). */
import { fieldError, key, type FieldError } from '../../machinery/field-errors.js';
import { isConfigMapKey } from '../../schema/validation/names.js';
import { defineKind } from '../../schema/define-kind.js';
import { ConfigMap as ConfigMapSchema } from '../types/core-v1.js';
import { bagSize, dropEmptyBag, MAX_DATA_SIZE, validateDataKeys, validateImmutableBags } from '../shared/data-keys.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A ConfigMap object. */
export type ConfigMap = ConfigMapSchema;

/** `ValidateConfigMap`: keys of both bags, no key in both, at most 1 MiB of values in total. */
function validateConfigMap(cm: ConfigMap): FieldError[] {
  const errors: FieldError[] = [];
  const binary = cm.binaryData ?? {};
  for (const k of Object.keys(cm.data ?? {})) {
    for (const msg of isConfigMapKey(k)) errors.push(fieldError.invalid(key('data', k), k, msg));
    if (Object.prototype.hasOwnProperty.call(binary, k)) {
      errors.push(fieldError.invalid(key('data', k), k, 'duplicate of key present in binaryData'));
    }
  }
  errors.push(...validateDataKeys(cm.binaryData, 'binaryData'));
  if (bagSize(cm.data, 'text') + bagSize(cm.binaryData, 'base64') > MAX_DATA_SIZE) {
    // Kubernetes reports the size at the empty path, which prints as `[]`.
    errors.push(fieldError.tooLong('[]', MAX_DATA_SIZE));
  }
  return errors;
}

/** ConfigMap. */
export const ConfigMapKind = defineKind<ConfigMap>({
  group: '',
  kind: 'ConfigMap',
  plural: 'configmaps',
  shortNames: ['cm'],
  scope: 'Namespaced',
  // No generation: pkg/registry/core/configmap/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1', ConfigMapSchema, { storage: true })],
  printerColumns: [
    {
      name: 'Data',
      type: 'integer',
      description: 'Number of keys',
      value: (cm) => Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length,
    },
  ],
  strategy: {
    defaults(cm) {
      // Empty maps are never serialized by Kubernetes.
      dropEmptyBag(cm, 'data');
      dropEmptyBag(cm, 'binaryData');
    },
    validate: (cm) => validateConfigMap(cm),
    // SetDefaults_ConfigMap makes `data` an empty map when absent; `binaryData` stays nil.
    validateUpdate: (cm, old) => validateImmutableBags(cm, old, ['data', 'binaryData'], ['data']),
  },
});
