/**
 * A component's health endpoints (`/healthz`, `/livez`, `/readyz`) and their SLIs (`/metrics/slis`),
 * as k8s.io/apiserver's `healthz` package and component-base's `slis` registry serve them: each
 * named check runs on every request of its endpoint; the answer lists them with `?verbose` (and
 * always on failure, the reasons withheld); `?exclude=<name>` skips one; `/<endpoint>/<name>`
 * runs one alone. Every run of a check is recorded in the `cluster_healthcheck` gauge and the
 * `cluster_healthchecks_total` counter of the SLI registry.
 */
import { MetricsRegistry } from './registry.js';

/**
 * The three health endpoints; the SLI metrics' `type` label.
 * @category Metrics, health and tracing
 */
export type HealthCheckType = 'healthz' | 'livez' | 'readyz';

/**
 * One named check: resolves when healthy, throws (an Error whose message says why) when not.
 * @category Metrics, health and tracing
 */
export interface HealthCheck {
  readonly name: string;
  /** Passes by returning; fails by throwing, the error's message being the reason shown. */
  check(): void | Promise<void>;
}

/**
 * The answer of a health path.
 * @category Metrics, health and tracing
 */
export interface HealthAnswer {
  readonly status: number;
  readonly body: string;
}

/**
 * Options of {@link HealthChecks}.
 * @category Metrics, health and tracing
 */
export interface HealthChecksOptions {
  /**
   * Record the SLI metrics (the ComponentSLIs feature gate, on by default); with it off
   * {@link HealthChecks.slis} is undefined and `/metrics/slis` is not served.
   */
  readonly slis?: boolean;
}

/**
 * The checks of a component, with the SLI metrics they feed.
 * @category Metrics, health and tracing
 */
export class HealthChecks {
  /** The SLI registry (`/metrics/slis`), or undefined with ComponentSLIs off. */
  readonly slis: MetricsRegistry | undefined;
  private readonly checks: Readonly<Record<HealthCheckType, readonly HealthCheck[]>>;
  private readonly gauge;
  private readonly total;

  constructor(checks: Partial<Record<HealthCheckType, readonly HealthCheck[]>>, options: HealthChecksOptions = {}) {
    this.checks = { healthz: checks.healthz ?? [], livez: checks.livez ?? [], readyz: checks.readyz ?? [] };
    this.slis = options.slis === false ? undefined : new MetricsRegistry();
    this.gauge = this.slis?.gauge({
      name: 'cluster_healthcheck',
      help: 'This metric records the result of a single healthcheck.',
      stability: 'STABLE',
      labelNames: ['name', 'type'],
    });
    this.total = this.slis?.counter({
      name: 'cluster_healthchecks_total',
      help: 'This metric records the results of all healthcheck.',
      stability: 'STABLE',
      labelNames: ['name', 'status', 'type'],
    });
  }

  /** The names of an endpoint's checks, in the order they run. */
  names(type: HealthCheckType): string[] {
    return this.checks[type].map((c) => c.name);
  }

  /**
   * The answer of `pathname` (`/healthz`, `/readyz/etcd`, ...; no trailing slash) with its query,
   * or undefined when it is not a health path of this component.
   */
  answer(pathname: string, params: URLSearchParams): Promise<HealthAnswer> | undefined {
    const parts = pathname.split('/').filter(Boolean);
    const type = parts[0];
    // Own keys only: `/constructor` must not find Object.prototype.
    if (type === undefined || !Object.hasOwn(this.checks, type)) return undefined;
    const checks = this.checks[type as HealthCheckType];
    if (parts.length >= 2) {
      // A check's name may have slashes of its own (`poststarthook/rbac/bootstrap-roles`).
      const name = parts.slice(1).join('/');
      const one = checks.find((c) => c.name === name);
      return one ? this.runOne(one) : undefined;
    }
    return this.runAll(type as HealthCheckType, checks, params);
  }

  private async runOne(check: HealthCheck): Promise<HealthAnswer> {
    const failure = await failureOf(check);
    return failure === undefined ? { status: 200, body: 'ok' } : { status: 500, body: `internal server error: ${failure}\n` };
  }

  private async runAll(type: HealthCheckType, checks: readonly HealthCheck[], params: URLSearchParams): Promise<HealthAnswer> {
    const excluded = new Set(params.getAll('exclude'));
    let out = '';
    let failed = false;
    for (const check of checks) {
      if (excluded.delete(check.name)) {
        out += `[+]${check.name} excluded: ok\n`;
        continue;
      }
      const failure = await failureOf(check);
      this.record(check.name, type, failure === undefined);
      if (failure === undefined) out += `[+]${check.name} ok\n`;
      else {
        // The endpoint is public: the reason goes to those allowed the check's own path.
        out += `[-]${check.name} failed: reason withheld\n`;
        failed = true;
      }
    }
    if (excluded.size > 0) {
      out += `warn: some health checks cannot be excluded: no matches for ${[...excluded]
        .sort()
        .map((n) => JSON.stringify(n))
        .join(',')}\n`;
    }
    if (failed) return { status: 500, body: `${out}${type} check failed\n` };
    return { status: 200, body: params.has('verbose') ? `${out}${type} check passed\n` : 'ok' };
  }

  private record(name: string, type: HealthCheckType, healthy: boolean): void {
    this.gauge?.set({ name, type }, healthy ? 1 : 0);
    this.total?.inc({ name, type, status: healthy ? 'success' : 'error' });
  }
}

/** The reason a check fails, or undefined when it passes. */
async function failureOf(check: HealthCheck): Promise<string | undefined> {
  try {
    await check.check();
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
