/**
 * Secret rules of Kubernetes v1.36: `stringData` folding, `ValidateSecret` (keys, size, the
 * per-type requirements), `ValidateSecretUpdate` and the TLS key-pair warning.
 */
import { fieldError, key, type FieldError } from '../../../machinery/field-errors.js';
import type { Secret } from '../../types/core-v1.js';
import { bagSize, MAX_DATA_SIZE, validateDataKeys, validateImmutableBags } from '../../shared/data-keys.js';
import { goUnmarshalObjectError } from '../../shared/go-json-check.js';
import { x509KeyPairError } from './tls.js';
import { setOwn } from '../../../util/own.js';

/** `core.SecretTypeOpaque`, the default type. */
export const SECRET_TYPE_OPAQUE = 'Opaque';

/** The well-known Secret types under the cluster's reserved domain (`kubernetes.io/tls`, ...). */
export function secretTypes(reservedDomain: string) {
  return {
    serviceAccountToken: `${reservedDomain}/service-account-token`,
    dockercfg: `${reservedDomain}/dockercfg`,
    dockerConfigJson: `${reservedDomain}/dockerconfigjson`,
    basicAuth: `${reservedDomain}/basic-auth`,
    sshAuth: `${reservedDomain}/ssh-auth`,
    tls: `${reservedDomain}/tls`,
  };
}

/**
 * What the v1 → internal conversion does with `stringData`: each entry overwrites `data[key]`
 * (as the UTF-8 bytes of the string), and `stringData` itself is never stored.
 */
export function foldStringData(secret: Secret): void {
  if (secret.stringData === undefined) return;
  const data = { ...secret.data };
  for (const [k, v] of Object.entries(secret.stringData)) setOwn(data, k, Buffer.from(v, 'utf8').toString('base64'));
  secret.data = data;
  delete secret.stringData;
}

function bytesOf(secret: Secret, k: string): Buffer | undefined {
  const v = secret.data?.[k];
  return v === undefined ? undefined : Buffer.from(v, 'base64');
}

function has(secret: Secret, k: string): boolean {
  return secret.data !== undefined && Object.prototype.hasOwnProperty.call(secret.data, k);
}

/** The docker config checks: the key must be there and hold a JSON object. */
function validateDockerConfig(secret: Secret, dataKey: string): FieldError[] {
  const bytes = bytesOf(secret, dataKey);
  if (bytes === undefined) return [fieldError.required(key('data', dataKey))];
  const error = goUnmarshalObjectError(bytes);
  return error ? [fieldError.invalid(key('data', dataKey), '<secret contents redacted>', error)] : [];
}

/** `ValidateSecret` without the ObjectMeta part (the engine checks metadata). */
export function validateSecret(secret: Secret, reservedDomain: string): FieldError[] {
  const errors = validateDataKeys(secret.data, 'data');
  if (bagSize(secret.data, 'base64') > MAX_DATA_SIZE) errors.push(fieldError.tooLong('data', MAX_DATA_SIZE));
  const types = secretTypes(reservedDomain);
  switch (secret.type) {
    case types.serviceAccountToken: {
      const annotation = `${reservedDomain}/service-account.name`;
      if (!secret.metadata?.annotations?.[annotation]) errors.push(fieldError.required(key('metadata.annotations', annotation)));
      break;
    }
    case types.dockercfg:
      errors.push(...validateDockerConfig(secret, '.dockercfg'));
      break;
    case types.dockerConfigJson:
      errors.push(...validateDockerConfig(secret, '.dockerconfigjson'));
      break;
    case types.basicAuth:
      // Either may be empty, but one of them must be there.
      if (!has(secret, 'username') && !has(secret, 'password')) {
        errors.push(fieldError.required(key('data', 'username')), fieldError.required(key('data', 'password')));
      }
      break;
    case types.sshAuth:
      if (!bytesOf(secret, 'ssh-privatekey')?.length) errors.push(fieldError.required(key('data', 'ssh-privatekey')));
      break;
    case types.tls:
      if (!has(secret, 'tls.crt')) errors.push(fieldError.required(key('data', 'tls.crt')));
      if (!has(secret, 'tls.key')) errors.push(fieldError.required(key('data', 'tls.key')));
      break;
    default:
      // Opaque and any other type: no requirements.
      break;
  }
  return errors;
}

/**
 * `ValidateSecretUpdate` but for the type, whose immutability the kind declares (`immutableFields`):
 * the `immutable` flag. `ValidateSecret` follows as the kind's `validate`.
 */
export function validateSecretUpdate(secret: Secret, old: Readonly<Secret>): FieldError[] {
  return validateImmutableBags(secret, old, ['data']);
}

/** The warning for a TLS Secret whose certificate and key are not a pair. */
export function secretWarnings(secret: Secret, reservedDomain: string): string[] {
  if (secret.type !== secretTypes(reservedDomain).tls) return [];
  const error = x509KeyPairError(bytesOf(secret, 'tls.crt') ?? Buffer.alloc(0), bytesOf(secret, 'tls.key') ?? Buffer.alloc(0));
  return error ? [error] : [];
}
