/** Audit: the policy's evaluation, the events of each request, the backends' contract and the in-memory backend. */
export * from './event.js';
export type { AuditBackend, AuditBackendContext } from './backend.js';
export { createMemoryAuditBackend, type MemoryAuditBackend, type MemoryAuditBackendOptions } from './memory-backend.js';
export { createAuditPipeline, AuditRejectedError, requestPathOf, type AuditOptions, type AuditPipeline } from './pipeline.js';
export { policyRuleEvaluator, ruleMatches, pathMatches, type AuditAttributes, type PolicyRuleEvaluator, type RequestAuditConfig } from './evaluate.js';
export { defineAuditMetrics, type AuditMetrics } from './metrics.js';
export { RequestAudit, NOT_AUDITED, isLongRunning, type AuditOutcome, type AuditRequestInit } from './request-audit.js';
export { sourceIPs, goIPString } from './source-ips.js';
export { unionSink, type AuditSink } from './sink.js';
