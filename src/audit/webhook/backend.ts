/**
 * The webhook backend (k8s.io/apiserver `plugin/pkg/audit/webhook`): each batch is POSTed as one
 * audit.k8s.io/v1 EventList to the server of the kubeconfig `--audit-webhook-config-file` names,
 * over HTTPS with its CA, client certificate or token. Any failure (no answer, or a status outside
 * 200-206) is retried as `webhook.DefaultRetryBackoffWithInitialDelay` does: up to 5 calls, waiting
 * `--audit-webhook-initial-backoff` (10 s) and 1.5 times longer after each next failure, with up to
 * 20% jitter. A batch that never got through is counted for the `webhook` plugin.
 */
import { readFileSync } from 'node:fs';
import { goOpenError, loadWebhookKubeconfig, type ReadFile, type WebhookKubeconfig } from '../../auth/webhook/kubeconfig.js';
import { REAL_TIMING, withExponentialBackoff, type RetryBackoff, type RetryTiming } from '../../auth/webhook/retry.js';
import { callWebhook, WebhookCallError, type WebhookResponse } from '../../webhook/client.js';
import type { EgressDialer } from '../../webhook/egress-dialer.js';
import type { AuditBackend } from '../backend.js';
import type { AuditEvent } from '../event.js';
import { IGNORE_AUDIT_ERRORS, type AuditErrorHandler } from '../log/plugin-error.js';
import { encodeAuditEventList } from '../log/encode.js';
import { MAX_TIMER_MS } from '../batch/timers.js';

/** The plugin name of the webhook backend. */
export const WEBHOOK_PLUGIN_NAME = 'webhook';

/** `--audit-webhook-initial-backoff`'s default. */
export const DEFAULT_AUDIT_WEBHOOK_INITIAL_BACKOFF_MS = 10_000;

/** memkube's deadline of one POST (kube-apiserver's audit client sets none). */
export const AUDIT_WEBHOOK_TIMEOUT_MS = 30_000;

/** The retries of one batch: `initialBackoffMs`, ×1.5, 20% jitter, 5 calls. */
export function auditWebhookBackoff(initialBackoffMs: number): RetryBackoff {
  return { initialDelayMs: Math.max(0, initialBackoffMs), factor: 1.5, jitter: 0.2, steps: 5 };
}

/** How to make a webhook backend. */
export interface WebhookBackendOptions {
  /** The kubeconfig file naming the webhook. */
  readonly kubeconfigFile: string;
  readonly initialBackoffMs?: number;
  /** Retry waits; real timers by default, a recording one in tests. */
  readonly timing?: RetryTiming;
  readonly onError?: AuditErrorHandler;
  /** Reads the kubeconfig and the files it names; the file system by default. */
  readonly readFile?: ReadFile;
  /** How connections are made (the control-plane egress selector); direct when absent. */
  readonly egress?: EgressDialer;
}

/** The error a non-2xx answer is, with the status and the start of the body. */
function statusError(res: WebhookResponse): Error {
  const body = res.body.subarray(0, 1024).toString('utf8');
  return new Error(`the server responded with the status code ${res.status} but did not return more information${body ? `: ${body}` : ''}`);
}

/** Posts batches of events to an audit webhook. */
export class WebhookBackend implements AuditBackend {
  readonly name = WEBHOOK_PLUGIN_NAME;
  private readonly backoff: RetryBackoff;
  private readonly timing: RetryTiming;
  private readonly onError: AuditErrorHandler;
  private readonly readFile: ReadFile;
  private token: string | undefined;

  private constructor(
    private readonly kubeconfig: WebhookKubeconfig,
    private readonly options: WebhookBackendOptions,
  ) {
    this.backoff = auditWebhookBackoff(options.initialBackoffMs ?? DEFAULT_AUDIT_WEBHOOK_INITIAL_BACKOFF_MS);
    const timing = options.timing ?? REAL_TIMING;
    // A wait beyond what a timer can hold (a hostile --audit-webhook-initial-backoff) is held at that.
    this.timing = { random: timing.random, sleep: (ms) => timing.sleep(Math.min(ms, MAX_TIMER_MS)) };
    this.onError = options.onError ?? IGNORE_AUDIT_ERRORS;
    this.readFile = options.readFile ?? ((p) => readFileSync(p, 'utf8'));
    this.token = kubeconfig.token;
  }

  /**
   * Loads the kubeconfig now; throws `initializing audit webhook: <client-go's error>` for one that
   * will not do, as kube-apiserver stops at start.
   */
  static create(options: WebhookBackendOptions): WebhookBackend {
    const readFile = options.readFile ?? ((p: string) => readFileSync(p, 'utf8'));
    try {
      return new WebhookBackend(loadWebhookKubeconfig(options.kubeconfigFile, readFile), options);
    } catch (e) {
      // The shared loader names the authorization webhook in its HTTPS-only message.
      const message = (e instanceof Error ? e.message : String(e)).replace('calls authorization webhooks', 'calls audit webhooks');
      throw new Error(`initializing audit webhook: ${message}`);
    }
  }

  async processEvents(events: readonly AuditEvent[]): Promise<boolean> {
    if (events.length === 0) return true;
    const body = encodeAuditEventList(events);
    try {
      // Every error is retried (the audit webhook's ShouldRetry is "any error").
      await withExponentialBackoff(
        this.backoff,
        this.timing,
        () => this.post(body),
        () => true,
      );
      return true;
    } catch (e) {
      this.onError(this.name, events.length, e instanceof Error ? e : new Error(String(e)));
      return false;
    }
  }

  async shutdown(): Promise<void> {
    // Nothing is held: each batch's call has finished when processEvents returns.
  }

  private async post(body: string): Promise<void> {
    const { endpoint, tokenFile } = this.kubeconfig;
    if (tokenFile !== undefined) {
      try {
        this.token = this.readFile(tokenFile).trim();
      } catch (e) {
        if (this.token === undefined) throw new WebhookCallError(goOpenError(tokenFile, e));
      }
    }
    const res = await callWebhook({
      endpoint: this.options.egress ? { ...endpoint, egress: this.options.egress } : endpoint,
      body,
      timeoutMs: AUDIT_WEBHOOK_TIMEOUT_MS,
      ...(this.token !== undefined ? { bearerToken: this.token } : {}),
    });
    if (res.status < 200 || res.status > 206) throw statusError(res);
  }
}
