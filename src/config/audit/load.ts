/**
 * Loading `--audit-policy-file` as kube-apiserver does (k8s.io/apiserver
 * `pkg/audit/policy/reader.go`): decode strictly, and when only unknown or duplicated fields are
 * wrong, decode leniently and warn; the version must be `audit.k8s.io/v1`; then validate, and
 * refuse a policy without rules.
 */
import { aggregateMessage } from '../../machinery/field-errors.js';
import { parseYamlDocuments } from '../../codec/yaml.js';
import { decodeWithSchema } from '../../schema/decode.js';
import { structuralOf } from '../../schema/structural.js';
import { ConfigDecodeError, MAX_CONFIG_BYTES, decodeConfig } from '../decode.js';
import { goReadFile } from '../go-read-file.js';
import { PolicyKind, PolicySchema, type AuditPolicy, type Policy } from './types.js';
import { validatePolicy } from './validation.js';

/**
 * Thrown for a policy kube-apiserver would refuse to start with; the message is its.
 * @category Audit
 */
export class AuditPolicyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuditPolicyError';
  }
}

/**
 * A policy ready to evaluate, and what kube-apiserver would have logged as warnings while reading it.
 * @category Audit
 */
export interface LoadedAuditPolicy {
  readonly policy: AuditPolicy;
  /** `Audit policy contains errors, falling back to lenient decoding: ...` for unknown or duplicated fields. */
  readonly warnings: readonly string[];
}

/** The scheme kube-apiserver's audit decoder names in its messages. */
const AUDIT_SCHEME = 'k8s.io/apiserver/pkg/audit/scheme.go:30';

/** Decodes a policy, falling back to lenient decoding when only strictness failed. */
function decodePolicy(input: string | Policy, warnings: string[]): Policy {
  try {
    return decodeConfig<Policy>(input, PolicyKind).value;
  } catch (e) {
    if (!(e instanceof ConfigDecodeError)) throw e;
    if (!e.message.startsWith('strict decoding error:')) {
      const message = e.message.startsWith('no kind ') ? `${e.message} in scheme ${JSON.stringify(AUDIT_SCHEME)}` : e.message;
      throw new AuditPolicyError(`failed decoding: ${message}`);
    }
    warnings.push(`Audit policy contains errors, falling back to lenient decoding: ${e.message}`);
    const value = typeof input === 'string' ? parseYamlDocuments(input)[0]!.value : input;
    return decodeWithSchema(value, structuralOf(PolicySchema())).value as Policy;
  }
}

/**
 * Decodes and validates an audit policy (its YAML or JSON text, or the object), as
 * `LoadPolicyFromBytes`; throws {@link AuditPolicyError} with kube-apiserver's message.
 * @category Audit
 */
export function loadAuditPolicy(input: string | Policy): LoadedAuditPolicy {
  const warnings: string[] = [];
  const policy = decodePolicy(input, warnings);
  const errs = validatePolicy(policy);
  if (errs.length) throw new AuditPolicyError(aggregateMessage(errs));
  if (!policy.rules?.length) throw new AuditPolicyError('loaded illegal policy with 0 rules');
  return { policy: policy as AuditPolicy, warnings };
}

/**
 * Reads and loads `--audit-policy-file`, as `LoadPolicyFromFile`: messages name the file.
 * @category Audit
 */
export function readAuditPolicyFile(path: string): LoadedAuditPolicy {
  if (path === '') throw new AuditPolicyError('file path not specified');
  const read = goReadFile(path);
  if (!read.ok) throw new AuditPolicyError(`failed to read file path ${JSON.stringify(path)}: ${read.error}`);
  if (read.data.byteLength > MAX_CONFIG_BYTES) {
    throw new AuditPolicyError(`failed decoding: configuration is larger than ${MAX_CONFIG_BYTES} bytes: from file ${path}`);
  }
  try {
    return loadAuditPolicy(read.data.toString('utf8'));
  } catch (e) {
    if (e instanceof AuditPolicyError) throw new AuditPolicyError(`${e.message}: from file ${path}`);
    throw e;
  }
}
