/**
 * The backends kube-apiserver builds from its audit flags (`AuditOptions.ApplyTo`): the policy file
 * read first, then the log backend when `--audit-log-path` is set (its file checked now), then the
 * webhook backend when `--audit-webhook-config-file` is set (its kubeconfig loaded now); each in its
 * mode and, when truncation is on, behind truncation. Without a policy file no backend is built:
 * there would be nothing to record.
 */
import { goReadFile } from '../../config/go-read-file.js';
import type { AuditFlags } from '../../config/audit-flags/index.js';
import type { RetryTiming } from '../../auth/webhook/retry.js';
import type { EgressDialer } from '../../webhook/egress-dialer.js';
import { goQuote } from '../../util/go-format.js';
import type { AuditBackend, AuditBackendContext } from '../backend.js';
import { LogBackend, type AuditLogFormat } from '../log/backend.js';
import { ensureLogFile, RotatingFile, STDOUT_AUDIT_LOG, type AuditLogWriter } from '../log/rotating-file.js';
import { WebhookBackend } from '../webhook/backend.js';
import type { BatchConfig } from '../batch/buffered.js';
import { wrapInMode, type AuditMode } from '../batch/modes.js';
import type { AuditErrorHandler } from '../log/plugin-error.js';
import type { AuditTimers } from '../batch/timers.js';
import { TruncateBackend } from '../batch/truncate.js';

/** What the backends need from the server that runs them. */
export interface AuditBackendEnvironment {
  /** Counts lost events (`apiserver_audit_error_total{plugin}`). */
  readonly onError?: AuditErrorHandler;
  /** Batch waits and throttling; real timers by default. */
  readonly timers?: AuditTimers;
  /** The webhook's retry waits; real timers by default. */
  readonly retryTiming?: RetryTiming;
  /** The control-plane egress dialer, when an egress selector configures one. */
  readonly egress?: EgressDialer;
  /** Where `--audit-log-path -` writes; standard output by default. */
  readonly stdout?: AuditLogWriter;
  /** The wall clock of log backup names; `Date.now` by default. */
  readonly now?: () => number;
}

/** The policy's text and the backends it feeds, or no policy and no backends. */
export interface AuditBackendSetup {
  /** The text of `--audit-policy-file`; undefined without the flag. */
  readonly policy?: string;
  readonly backends: AuditBackend[];
  /** kube-apiserver's V(2) lines about backends left out for want of a policy. */
  readonly notes: string[];
}

function batchConfig(flags: AuditFlags['log'] | AuditFlags['webhook'], asyncDelegate: boolean): BatchConfig {
  return { ...flags.batch, asyncDelegate };
}

/** Reads the policy file and builds the backends; throws kube-apiserver's start-up errors. */
export function auditBackendsFromFlags(flags: AuditFlags, env: AuditBackendEnvironment = {}): AuditBackendSetup {
  let policy: string | undefined;
  if (flags.policyFile !== '') {
    const read = goReadFile(flags.policyFile);
    if (!read.ok) throw new Error(`loading audit policy file: failed to read file path ${goQuote(flags.policyFile)}: ${read.error}`);
    policy = read.data.toString('utf8');
  }
  const backends: AuditBackend[] = [];
  const notes: string[] = [];
  // Lost events go to the server's handler (its log) and to the metrics of every cluster the
  // backends are attached to (apiserver_audit_error_total).
  const attached: AuditBackendContext[] = [];
  const onError: AuditErrorHandler = (plugin, events, error) => {
    env.onError?.(plugin, events, error);
    for (const context of attached) context.handlePluginError(plugin, error, events);
  };
  const common = { onError, ...(env.timers ? { timers: env.timers } : {}) };

  const log = flags.log;
  if (log.path !== '') {
    if (policy === undefined) notes.push('No audit policy file provided, no events will be recorded for log backend');
    else {
      let out: AuditLogWriter;
      if (log.path === '-') out = env.stdout ?? STDOUT_AUDIT_LOG;
      else {
        ensureLogFile(log.path);
        out = new RotatingFile({
          path: log.path,
          maxSizeMB: log.maxSize,
          maxBackups: log.maxBackups,
          maxAgeDays: log.maxAge,
          compress: log.compress,
          ...(env.now ? { now: env.now } : {}),
        });
      }
      let backend: AuditBackend = new LogBackend({ out, format: log.format as AuditLogFormat, onError });
      backend = wrapInMode(backend, log.mode as AuditMode, batchConfig(log, false), common);
      if (log.truncate.enabled) backend = new TruncateBackend(backend, log.truncate, common);
      backends.push(backend);
    }
  }

  const webhook = flags.webhook;
  if (webhook.configFile !== '') {
    if (policy === undefined) notes.push('No audit policy file provided, no events will be recorded for webhook backend');
    else {
      let backend: AuditBackend = WebhookBackend.create({
        kubeconfigFile: webhook.configFile,
        initialBackoffMs: webhook.initialBackoffMs,
        ...(env.retryTiming ? { timing: env.retryTiming } : {}),
        ...(env.egress ? { egress: env.egress } : {}),
        onError,
      });
      backend = wrapInMode(backend, webhook.mode as AuditMode, batchConfig(webhook, true), common);
      if (webhook.truncate.enabled) backend = new TruncateBackend(backend, webhook.truncate, common);
      backends.push(backend);
    }
  }
  for (const backend of backends) backend.attach = (context) => void attached.push(context);
  return { ...(policy !== undefined ? { policy } : {}), backends, notes };
}
