/**
 * A cluster's audit (kube-apiserver's `--audit-policy-file` with its backends): the policy decides
 * each request's level, the request's audit makes its events, the backends receive them. The
 * HTTP door begins an audit after authentication; a request made in-process (`cluster.request`,
 * `cluster.client`) is audited here, once, as the request the client sent.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import { loadAuditPolicy, type LoadedAuditPolicy } from '../config/audit/load.js';
import type { AuditPolicy, Policy } from '../config/audit/types.js';
import { apiRequestAttributes } from '../auth/request-attributes.js';
import { ApiError, type Status } from '../machinery/errors.js';
import type { ApiRequest, ApiResponse } from '../machinery/request.js';
import type { MetricsRegistry } from '../metrics/registry.js';
import type { AuditBackend } from './backend.js';
import { policyRuleEvaluator, type AuditAttributes, type PolicyRuleEvaluator } from './evaluate.js';
import { defineAuditMetrics, type AuditMetrics } from './metrics.js';
import { RequestAudit, type AuditRequestInit, type AuditServices } from './request-audit.js';
import { unionSink } from './sink.js';

/**
 * What `createCluster({ audit })` takes.
 * @category Audit
 */
export interface AuditOptions {
  /**
   * The audit.k8s.io/v1 Policy, its YAML or JSON text, or a policy already loaded (`readAuditPolicyFile(path)`,
   * whose errors name the file). A policy kube-apiserver refuses makes `createCluster` throw its message.
   */
  policy: Policy | string | LoadedAuditPolicy;
  /** Where events go: `createMemoryAuditBackend()`, a log or webhook backend, or your own. */
  backends: readonly AuditBackend[];
}

/**
 * A cluster's audit pipeline, as the doors use it.
 * @category Audit
 */
export interface AuditPipeline {
  /** The policy in force. */
  readonly policy: AuditPolicy;
  /** What reading the policy warned about (unknown fields decoded leniently). */
  readonly warnings: readonly string[];
  /**
   * Begins the audit of a request (policy evaluated, level counted): undefined at level None.
   * The caller then sends RequestReceived with `received()`.
   */
  begin(init: AuditRequestInit): RequestAudit | undefined;
  /** Audits a request refused by authentication (one ResponseStarted event with the 401). */
  unauthenticated(init: AuditRequestInit, message: string): void | Promise<void>;
  /** Runs an in-process request through `run`, audited unless it carries an audit record already. */
  inProcess(req: ApiRequest, run: (req: ApiRequest) => Promise<ApiResponse>): Promise<ApiResponse>;
  /** Shuts every backend down (what is buffered is written). */
  shutdown(): Promise<void>;
}

/** The message of a request refused because its RequestReceived event could not be stored. */
export const AUDIT_STORE_FAILED = 'failed to store audit event';

/** Thrown by a door when a backend refused a request's RequestReceived event: the request fails with 500. */
export class AuditRejectedError extends Error {
  constructor() {
    super(AUDIT_STORE_FAILED);
    this.name = 'AuditRejectedError';
  }
}

/** Makes the audit pipeline of a cluster; throws an `AuditPolicyError` for a policy kube-apiserver refuses. */
export function createAuditPipeline(options: AuditOptions, services: { clock: Clock; metrics: MetricsRegistry }): AuditPipeline {
  const loaded = isLoaded(options.policy) ? options.policy : loadAuditPolicy(options.policy);
  const evaluate: PolicyRuleEvaluator = policyRuleEvaluator(loaded.policy);
  const metrics: AuditMetrics = defineAuditMetrics(services.metrics);
  const sink = unionSink(options.backends, {
    handlePluginError: (plugin, _error, impacted) => metrics.pluginError(plugin, typeof impacted === 'number' ? impacted : impacted.length),
  });
  const shared: AuditServices = { sink, metrics, clock: services.clock };
  const begin = (init: AuditRequestInit): RequestAudit | undefined => {
    const config = evaluate(init.attributes);
    metrics.level(config.level);
    return config.level === 'None' ? undefined : new RequestAudit(shared, config, init);
  };
  return {
    policy: loaded.policy,
    warnings: loaded.warnings,
    begin,
    unauthenticated(init, message) {
      const audit = begin(init);
      if (!audit) return;
      const kept = audit.unauthenticated(message);
      return typeof kept === 'boolean' ? undefined : kept.then(() => undefined);
    },
    inProcess: (req, run) => (req.audit ? run(req) : auditInProcess(begin, req, run, services.clock)),
    async shutdown() {
      await Promise.all(options.backends.map((b) => b.shutdown()));
    },
  };
}

function isLoaded(policy: AuditOptions['policy']): policy is LoadedAuditPolicy {
  return typeof policy === 'object' && 'policy' in policy && 'warnings' in policy && !('apiVersion' in policy);
}

/** The attributes of an in-process request, as the engine authorizes it. */
function inProcessAttributes(req: ApiRequest): AuditAttributes {
  return apiRequestAttributes(req);
}

/** The path an HTTP client would have asked for an in-process request. */
export function requestPathOf(req: ApiRequest): string {
  const { group, version, resource } = req.resource;
  let path = group ? `/apis/${group}/${version}` : `/api/${version}`;
  if (req.namespace !== undefined && !(group === '' && resource === 'namespaces')) path += `/namespaces/${encodeURIComponent(req.namespace)}`;
  path += `/${resource}`;
  if (req.name !== undefined) path += `/${encodeURIComponent(req.name)}`;
  if (req.subresource !== undefined) path += `/${req.subresource}`;
  return req.verb === 'watch' ? `${path}?watch=true` : path;
}

/** An in-process request's events: as the HTTP door makes them, without headers or a remote address. */
async function auditInProcess(
  begin: (init: AuditRequestInit) => RequestAudit | undefined,
  req: ApiRequest,
  run: (req: ApiRequest) => Promise<ApiResponse>,
  clock: Clock,
): Promise<ApiResponse> {
  const audit = begin({
    auditID: randomUUID(),
    receivedAt: clock.now(),
    requestURI: requestPathOf(req),
    attributes: inProcessAttributes(req),
    ...(req.userAgent ? { userAgent: req.userAgent } : {}),
  });
  if (!audit) return run(req);
  if (!(await audit.received())) {
    throw new ApiError({ code: 500, reason: 'InternalError', message: `Internal error occurred: ${AUDIT_STORE_FAILED}` });
  }
  const audited: ApiRequest = { ...req, audit };
  audit.request(audited);
  let res: ApiResponse;
  try {
    res = await run(audited);
  } catch (e) {
    if (e instanceof ApiError) await audit.complete({ code: e.code, status: e.status, body: e.status });
    else await audit.panic(e);
    throw e;
  }
  const body = res.body as { kind?: unknown; done?: Promise<void> } | undefined;
  if (audit.longRunning) {
    await audit.started(res.code);
    // A watch's last event comes when it ends; a stream's (a log) as soon as it is handed over.
    if (req.verb === 'watch' && body?.done instanceof Promise) {
      void body.done.then(() => audit.complete({ code: res.code }));
      return res;
    }
    await audit.complete({ code: res.code });
    return res;
  }
  await audit.complete({ code: res.code, status: body?.kind === 'Status' ? (res.body as Status) : undefined, body: res.body });
  return res;
}
