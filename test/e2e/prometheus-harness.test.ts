/**
 * The real-Prometheus harness (test/support/prometheus/) itself, against tiny servers of this file:
 * promtool check metrics on good, badly named and broken expositions; Prometheus scraping a static
 * text exposition over HTTP and over HTTPS with a CA file and a bearer token (a wrong token shows as
 * a down target), negotiating OpenMetrics text by default and protobuf with native histograms on,
 * where a native-histogram-only query answers. Skips only without root or without a Debian mirror.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateServingCertificate } from '../../src/pki/self-signed.js';
import { ACCEPTED_UPSTREAM_LINT, LINT, unacceptedProblems } from '../support/prometheus/accepted-lint.js';
import { prometheusAvailability } from '../support/prometheus/availability.js';
import { prometheusConfig } from '../support/prometheus/config.js';
import { FIXTURE_HISTOGRAM, nativeHistogramExposition, PROTOBUF_CONTENT_TYPE } from '../support/prometheus/native-histogram-fixture.js';
import { checkMetrics, parseOutput } from '../support/prometheus/promtool.js';
import { startPrometheus, type RunningPrometheus } from '../support/prometheus/start.js';

const availability = await prometheusAvailability();
if (!availability.available) console.warn(`prometheus harness tests skipped: ${availability.reason}`);

/** A valid text exposition: a counter, a gauge and a classic histogram, with HELP and TYPE. */
const STATIC_EXPOSITION = `# HELP harness_requests_total Requests the harness fixture answered.
# TYPE harness_requests_total counter
harness_requests_total{code="200",path="/a"} 3
harness_requests_total{code="404",path="/b"} 1
# HELP harness_temperature_celsius A gauge of the fixture.
# TYPE harness_temperature_celsius gauge
harness_temperature_celsius 21.5
# HELP harness_latency_seconds A classic histogram of the fixture.
# TYPE harness_latency_seconds histogram
harness_latency_seconds_bucket{le="0.1"} 1
harness_latency_seconds_bucket{le="1"} 2
harness_latency_seconds_bucket{le="+Inf"} 2
harness_latency_seconds_sum 0.6
harness_latency_seconds_count 2
`;

describe('prometheusConfig', () => {
  it('writes a 1 s global scrape interval and timeout, and each job with its scheme, path, token and TLS settings', () => {
    const config = parse(
      prometheusConfig([
        { jobName: 'plain', targets: ['127.0.0.1:1'] },
        {
          jobName: 'secure',
          targets: ['127.0.0.1:2'],
          scheme: 'https',
          metricsPath: '/metrics/slis',
          bearerToken: 't0ken',
          tls: { caFile: '/ca.crt', serverName: 'localhost' },
          labels: { component: 'x' },
        },
        { jobName: 'kubelet', targets: ['127.0.0.1:3'], scheme: 'https', tls: { insecureSkipVerify: true } },
      ]),
    ) as { global: Record<string, string>; scrape_configs: Record<string, unknown>[] };
    expect(config.global).toEqual({ scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' });
    expect(config.scrape_configs[0]).toEqual({ job_name: 'plain', metrics_path: '/metrics', scheme: 'http', static_configs: [{ targets: ['127.0.0.1:1'] }] });
    expect(config.scrape_configs[1]).toEqual({
      job_name: 'secure',
      metrics_path: '/metrics/slis',
      scheme: 'https',
      authorization: { type: 'Bearer', credentials: 't0ken' },
      tls_config: { ca_file: '/ca.crt', server_name: 'localhost' },
      static_configs: [{ targets: ['127.0.0.1:2'], labels: { component: 'x' } }],
    });
    expect(config.scrape_configs[2]!.tls_config).toEqual({ insecure_skip_verify: true });
  });

  it('refuses two jobs of one name and a job without targets, which Prometheus would refuse at start', () => {
    expect(() =>
      prometheusConfig([
        { jobName: 'a', targets: ['x:1'] },
        { jobName: 'a', targets: ['x:2'] },
      ]),
    ).toThrow(/two scrape jobs are named "a"/);
    expect(() => prometheusConfig([{ jobName: 'a', targets: [] }])).toThrow(/has no target/);
  });
});

describe('promtool output and the accepted upstream findings', () => {
  it('reads one problem per line and the parse error', () => {
    expect(parseOutput('foo counter metrics should have "_total" suffix\nbar no help text\n')).toEqual({
      problems: [
        { metric: 'foo', text: LINT.totalSuffix },
        { metric: 'bar', text: LINT.noHelp },
      ],
    });
    expect(parseOutput('error while linting: text format parsing error in line 1: invalid metric name\n')).toEqual({
      problems: [],
      parseError: 'text format parsing error in line 1: invalid metric name',
    });
  });

  it('accepts only the rule an upstream name breaks, and nothing for other names', () => {
    expect(ACCEPTED_UPSTREAM_LINT.length).toBeGreaterThan(0);
    const upstream = { metric: 'apiserver_admission_webhook_rejection_count', text: LINT.totalSuffix };
    const otherRule = { metric: 'apiserver_admission_webhook_rejection_count', text: LINT.noHelp };
    const ours = { metric: 'memkube_things', text: LINT.totalSuffix };
    expect(unacceptedProblems([upstream, otherRule, ours])).toEqual([otherRule, ours]);
  });
});

describe.skipIf(!availability.available)('promtool check metrics (Debian prometheus 2.42)', () => {
  it('passes a well-formed exposition without a finding', async () => {
    expect(await checkMetrics(STATIC_EXPOSITION)).toEqual({ ok: true, exitCode: 0, output: '', problems: [] });
  });

  it('exits 3 and lists the lint problems of badly named metrics', async () => {
    const result = await checkMetrics('# HELP things A counter without _total.\n# TYPE things counter\nthings 1\nno_help 2\n');
    expect(result.ok).toBe(false);
    expect(result.exitCode).toBe(3);
    expect(result.parseError).toBeUndefined();
    expect(result.problems).toEqual(
      expect.arrayContaining([
        { metric: 'things', text: LINT.totalSuffix },
        { metric: 'no_help', text: LINT.noHelp },
      ]),
    );
  });

  it('exits 1 with the parse error of an exposition that does not parse', async () => {
    const result = await checkMetrics('broken{label="x" 1\n');
    expect(result.exitCode).toBe(1);
    expect(result.parseError).toMatch(/text format parsing error in line 1/);
  });
});

/** A tiny server answering `/metrics` with `body`; records each scrape's Accept and Authorization headers. */
interface Fixture {
  readonly target: string;
  readonly scrapes: { accept: string; authorization: string }[];
  close(): Promise<void>;
}

function answer(body: () => { type: string; data: string | Buffer }, token: string | undefined, scrapes: Fixture['scrapes']) {
  return (req: IncomingMessage, res: ServerResponse) => {
    scrapes.push({ accept: req.headers.accept ?? '', authorization: req.headers.authorization ?? '' });
    if (token !== undefined && req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { 'content-type': 'text/plain' }).end('Unauthorized');
      return;
    }
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    const { type, data } = body();
    res.writeHead(200, { 'content-type': type }).end(data);
  };
}

async function serveFixture(server: Server, scrapes: Fixture['scrapes']): Promise<Fixture> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    target: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    scrapes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const textBody = () => ({ type: 'text/plain; version=0.0.4; charset=utf-8', data: STATIC_EXPOSITION });

/** Everything the Prometheus tests scrape, started at once: each Prometheus scrapes first about 5 s after it starts. */
let dir: string;
let plain: Fixture;
let secure: Fixture;
let native: Fixture;
let prometheus: RunningPrometheus;
let nativePrometheus: RunningPrometheus;

beforeAll(async () => {
  if (!availability.available) return;
  dir = mkdtempSync(join(tmpdir(), 'memkube-prometheus-harness-'));
  const plainScrapes: Fixture['scrapes'] = [];
  plain = await serveFixture(createServer(answer(textBody, undefined, plainScrapes)), plainScrapes);
  const certificates = await generateServingCertificate({ hosts: ['127.0.0.1'] });
  writeFileSync(join(dir, 'ca.crt'), certificates.ca.cert);
  const secureScrapes: Fixture['scrapes'] = [];
  secure = await serveFixture(
    createHttpsServer({ cert: certificates.serving.cert, key: certificates.serving.key }, answer(textBody, 's3cret', secureScrapes)),
    secureScrapes,
  );
  const nativeScrapes: Fixture['scrapes'] = [];
  native = await serveFixture(
    createServer(answer(() => ({ type: PROTOBUF_CONTENT_TYPE, data: nativeHistogramExposition() }), undefined, nativeScrapes)),
    nativeScrapes,
  );
  [prometheus, nativePrometheus] = await Promise.all([
    startPrometheus({
      scrapeConfigs: [
        { jobName: 'plain', targets: [plain.target] },
        { jobName: 'secure', targets: [secure.target], scheme: 'https', bearerToken: 's3cret', tls: { caFile: join(dir, 'ca.crt') } },
        { jobName: 'wrong-token', targets: [secure.target], scheme: 'https', bearerToken: 'guess', tls: { caFile: join(dir, 'ca.crt') } },
      ],
    }),
    startPrometheus({ scrapeConfigs: [{ jobName: 'native', targets: [native.target] }], nativeHistograms: true }),
  ]);
}, 60_000);

afterAll(async () => {
  await prometheus?.stop();
  await nativePrometheus?.stop();
  for (const fixture of [plain, secure, native]) await fixture?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!availability.available)('startPrometheus: a real Prometheus scraping static expositions', () => {
  it('is ready on 127.0.0.1 and answers queries', async () => {
    expect(prometheus.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const info = (await (await fetch(`${prometheus.url}/api/v1/status/buildinfo`)).json()) as { data: { version: string } };
    expect(info.data.version).toBe('2.42.0+ds');
    await expect(prometheus.query('sum(')).rejects.toThrow(/bad_data/);
  });

  it('scrapes the plain HTTP target, asking for OpenMetrics first, and answers its series with their labels and values', async () => {
    const found = await prometheus.waitForSeries('harness_requests_total{job="plain"}', (r) => r.length === 2);
    const byPath = Object.fromEntries(found.map((s) => [s.metric.path, { code: s.metric.code, value: s.value?.[1], instance: s.metric.instance }]));
    expect(byPath).toEqual({ '/a': { code: '200', value: '3', instance: plain.target }, '/b': { code: '404', value: '1', instance: plain.target } });
    const [bucket] = await prometheus.waitForSeries('harness_latency_seconds_bucket{job="plain",le="1"}');
    expect(bucket?.value?.[1]).toBe('2');
    expect(plain.scrapes[0]?.accept).toMatch(/^application\/openmetrics-text;version=1\.0\.0,/);
    expect(plain.scrapes[0]?.accept).not.toMatch(/protobuf/);
  });

  it('scrapes over HTTPS verifying the serving certificate with the CA file and sending the bearer token', async () => {
    const [temperature] = await prometheus.waitForSeries('harness_temperature_celsius{job="secure"}');
    expect(temperature?.value?.[1]).toBe('21.5');
    expect(secure.scrapes.some((s) => s.authorization === 'Bearer s3cret')).toBe(true);
  });

  it('shows a target whose token is refused as down, with the status in its last error', async () => {
    await prometheus.waitForSeries('up{job="wrong-token"} == 0');
    const target = (await prometheus.targets()).find((t) => t.labels.job === 'wrong-token');
    expect(target).toMatchObject({ health: 'down', lastError: expect.stringMatching(/401 Unauthorized/) });
  });

  it('stop() kills it by its PID and removes its directory', async () => {
    const { pid, dir: own } = prometheus;
    await prometheus.stop();
    expect(() => process.kill(pid, 0)).toThrow();
    expect(existsSync(own)).toBe(false);
    await prometheus.stop(); // idempotent
  });
});

describe.skipIf(!availability.available)('startPrometheus with native histograms (protobuf scrape)', () => {
  it('asks for protobuf first and keeps the native histogram: histogram_count and histogram_sum answer', async () => {
    const [count] = await nativePrometheus.waitForSeries(`histogram_count(${FIXTURE_HISTOGRAM.name})`);
    expect(count?.value?.[1]).toBe(String(FIXTURE_HISTOGRAM.count));
    expect((await nativePrometheus.query(`histogram_sum(${FIXTURE_HISTOGRAM.name})`))[0]?.value?.[1]).toBe(String(FIXTURE_HISTOGRAM.sum));
    expect(native.scrapes[0]?.accept).toMatch(/^application\/vnd\.google\.protobuf;proto=io\.prometheus\.client\.MetricFamily;encoding=delimited/);
  });

  it('answers the bare name with a histogram sample holding its buckets, and has no classic _bucket series', async () => {
    const [sample] = await nativePrometheus.waitForSeries(FIXTURE_HISTOGRAM.name);
    expect(sample?.metric.path).toBe('/a');
    expect(sample?.value).toBeUndefined();
    expect(sample?.histogram?.[1]).toMatchObject({ count: '3', sum: '7' });
    expect(sample?.histogram?.[1].buckets?.map((b) => b[3])).toEqual(['1', '1', '1']);
    expect(await nativePrometheus.query(`${FIXTURE_HISTOGRAM.name}_bucket`)).toEqual([]);
  });
});
