/**
 * The prometheus.yml the harness writes: a short global scrape interval (1 s) so that a test sees
 * its series within seconds, and one scrape job per target set, over HTTP or HTTPS, with a bearer
 * token when asked.
 */
import { stringify } from 'yaml';

/** TLS settings of a scrape over HTTPS. */
export interface ScrapeTls {
  /** A CA certificate file (PEM) to verify the target's serving certificate with. */
  readonly caFile?: string;
  /** Accept any serving certificate (a kubelet's self-signed one). */
  readonly insecureSkipVerify?: boolean;
  /** The name to verify the certificate for, when not the target's host. */
  readonly serverName?: string;
}

/** One scrape job. */
export interface ScrapeConfig {
  /** The `job` label of its series. */
  readonly jobName: string;
  /** `host:port` of each target. */
  readonly targets: readonly string[];
  /** `/metrics` by default. */
  readonly metricsPath?: string;
  /** `http` by default. */
  readonly scheme?: 'http' | 'https';
  /** Sent as `Authorization: Bearer <token>`. */
  readonly bearerToken?: string;
  readonly tls?: ScrapeTls;
  /** Extra labels on every series of the job. */
  readonly labels?: Readonly<Record<string, string>>;
}

/** The global settings the harness uses. */
export interface GlobalSettings {
  /** Seconds between scrapes (and the scrape timeout): 1 by default. */
  readonly scrapeIntervalSeconds?: number;
}

/** The prometheus.yml text for `jobs`. */
export function prometheusConfig(jobs: readonly ScrapeConfig[], { scrapeIntervalSeconds = 1 }: GlobalSettings = {}): string {
  const names = new Set<string>();
  for (const job of jobs) {
    if (names.has(job.jobName)) throw new Error(`two scrape jobs are named ${JSON.stringify(job.jobName)}: Prometheus refuses that`);
    names.add(job.jobName);
    if (job.targets.length === 0) throw new Error(`scrape job ${job.jobName} has no target`);
  }
  const interval = `${scrapeIntervalSeconds}s`;
  return stringify({
    global: { scrape_interval: interval, scrape_timeout: interval, evaluation_interval: interval },
    scrape_configs: jobs.map((job) => ({
      job_name: job.jobName,
      metrics_path: job.metricsPath ?? '/metrics',
      scheme: job.scheme ?? 'http',
      ...(job.bearerToken !== undefined ? { authorization: { type: 'Bearer', credentials: job.bearerToken } } : {}),
      ...(job.tls
        ? {
            tls_config: {
              ...(job.tls.caFile !== undefined ? { ca_file: job.tls.caFile } : {}),
              ...(job.tls.insecureSkipVerify ? { insecure_skip_verify: true } : {}),
              ...(job.tls.serverName !== undefined ? { server_name: job.tls.serverName } : {}),
            },
          }
        : {}),
      static_configs: [{ targets: [...job.targets], ...(job.labels ? { labels: { ...job.labels } } : {}) }],
    })),
  });
}
