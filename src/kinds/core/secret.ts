/** Secret (core v1). */
import { defineKind } from '../../schema/define-kind.js';
import { Secret as SecretSchema } from '../types/core-v1.js';
import { dropEmptyBag } from '../shared/data-keys.js';
import { foldStringData, SECRET_TYPE_OPAQUE, secretWarnings, validateSecret, validateSecretUpdate } from './secret/rules.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A Secret object. */
export type Secret = SecretSchema;

/** Secret. */
export const SecretKind = defineKind<Secret>({
  group: '',
  kind: 'Secret',
  plural: 'secrets',
  scope: 'Namespaced',
  // No generation: pkg/registry/core/secret/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1', SecretSchema, { storage: true })],
  printerColumns: [
    { name: 'Type', type: 'string', value: (s) => s.type },
    { name: 'Data', type: 'integer', value: (s) => Object.keys(s.data ?? {}).length },
  ],
  selectableFields: { type: (s) => s.type },
  // `ValidateSecretUpdate`: the type is a Go string (unset is "") and may not change.
  immutableFields: [{ path: 'type', zero: '' }],
  strategy: {
    defaults(secret) {
      // Decoding a v1 Secret folds stringData into data and defaults the type (before any rule runs,
      // so a PUT without `type` means Opaque, not "keep the old type").
      foldStringData(secret);
      dropEmptyBag(secret, 'data');
      if (!secret.type) secret.type = SECRET_TYPE_OPAQUE;
    },
    validate: (secret, ctx) => validateSecret(secret, ctx.reservedDomain),
    validateUpdate: (secret, old) => validateSecretUpdate(secret, old),
    warnings: (secret, _old, ctx) => secretWarnings(secret, ctx.reservedDomain),
  },
});
