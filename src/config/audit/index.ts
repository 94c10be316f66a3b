/** The audit policy (`--audit-policy-file`): its types, decoding and validation. */
export * from './types.js';
export { AuditPolicyError, loadAuditPolicy, readAuditPolicyFile, type LoadedAuditPolicy } from './load.js';
export { validatePolicy } from './validation.js';
