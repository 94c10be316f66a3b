/**
 * A real Prometheus (Debian's 2.42) scraping `memkube serve` and `memkube node-agent` (on memkube's
 * CRI) as it scrapes a cluster: over HTTPS, the API server's serving certificate verified with the
 * kubeconfig's CA, the agent's self-signed one not, with the bearer token of a user in group
 * `system:monitoring` (which the bootstrap RBAC policy lets read `/metrics`, `/metrics/slis` and the
 * health endpoints), bound to `nodes/metrics` and `nodes/healthz` for the agent, which asks the API
 * server (TokenReview, SubjectAccessReview).
 *
 * First with the text formats (Prometheus negotiates OpenMetrics), then with the NativeHistograms
 * gate on both components and Prometheus' native-histograms feature, which negotiates protobuf: a
 * query that only a native histogram answers must answer. Every exposition passes promtool check
 * metrics but for the findings of upstream names (test/support/prometheus/accepted-lint.ts).
 * Skips only without root or without a Debian mirror.
 */
import { request } from 'node:https';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlRunner } from '../support/kubectl.js';
import { freePort, startMemkube, type MemkubeProcess } from '../support/memkube-process.js';
import { unacceptedProblems } from '../support/prometheus/accepted-lint.js';
import { prometheusAvailability } from '../support/prometheus/availability.js';
import { checkMetrics } from '../support/prometheus/promtool.js';
import { startPrometheus, type PromSample, type RunningPrometheus } from '../support/prometheus/start.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
const TOKEN = 'prometheus-scrape-token';
const NODE = 'n1';
/** How long a memkube process may take to start: tsx compiles src/ first, slowly on a busy machine. */
const START_TIMEOUT_MS = 60_000;

const availability = await prometheusAvailability();
if (!availability.available) console.warn(`real-Prometheus e2e skipped: ${availability.reason}`);

interface Answer {
  status: number;
  body: string;
  contentType: string | undefined;
}

/** GET over HTTPS with the scrape token: verifying the server with `ca`, or (without) accepting any certificate. */
function get(url: string, { ca, accept }: { ca?: string; accept?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'GET',
        ...(ca !== undefined ? { ca } : { rejectUnauthorized: false }),
        headers: { authorization: `Bearer ${TOKEN}`, ...(accept !== undefined ? { accept } : {}) },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, contentType: res.headers['content-type'] }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The agent's configuration: nothing anonymous, tokens through TokenReview, every request through SubjectAccessReview. */
const agentConfig = (logs: string) => `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
podLogsDir: ${logs}
authentication:
  anonymous:
    enabled: false
  webhook:
    enabled: true
authorization:
  mode: Webhook
`;

/** What the scrape user may read on the nodes: Prometheus' usual kubelet rules. */
const SCRAPER_RBAC = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: prometheus-nodes}
rules:
- apiGroups: [""]
  resources: [nodes/metrics, nodes/healthz]
  verbs: [get]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: prometheus-nodes}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: prometheus-nodes}
subjects:
- {kind: User, name: prometheus, apiGroup: rbac.authorization.k8s.io}
`;

/** One memkube cri for both stacks (one after the other), in a directory of its own. */
let criDir: string;
let cri: MemkubeProcess | undefined;
const criSocket = () => join(criDir, 'cri.sock');

beforeAll(async () => {
  if (!availability.available) return;
  criDir = mkdtempSync(join(tmpdir(), 'memkube-e2e-prometheus-cri-'));
  cri = await startMemkube(['cri', '--socket', criSocket()], START_TIMEOUT_MS);
}, 120_000);

afterAll(async () => {
  await cri?.stop();
  if (criDir) rmSync(criDir, { recursive: true, force: true });
});

/** One memkube serve, one node agent (on the shared memkube cri) and one Prometheus scraping both components. */
interface Stack {
  dir: string;
  serve: ServeProcess;
  agent: MemkubeProcess;
  agentUrl: string;
  ca: string;
  prometheus: RunningPrometheus;
  ok: (...args: string[]) => Promise<string>;
}

async function startStack(nativeHistograms: boolean): Promise<Stack> {
  const dir = mkdtempSync(join(tmpdir(), 'memkube-e2e-prometheus-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const { ok } = kubectlRunner(
    KUBECTL,
    () => kubeconfig,
    () => dir,
  );
  const gates = nativeHistograms ? ['--feature-gates=NativeHistograms=true'] : [];
  const stack: Partial<Stack> = { dir, ok };
  try {
    writeFileSync(join(dir, 'tokens.csv'), `${TOKEN},prometheus,prometheus-uid,system:monitoring\n`);
    const serve = await startServe(
      kubeconfig,
      ['--tls', '--authorization-mode', 'RBAC', '--token-auth-file', join(dir, 'tokens.csv'), ...gates],
      'src',
      START_TIMEOUT_MS,
    );
    stack.serve = serve;
    const cluster = (parse(readFileSync(kubeconfig, 'utf8')) as { clusters: { cluster: Record<string, string> }[] }).clusters[0]!.cluster;
    const ca = Buffer.from(cluster['certificate-authority-data']!, 'base64').toString('utf8');
    writeFileSync(join(dir, 'ca.crt'), ca);
    const apiserver = new URL(serve.url).host;
    const agentPort = await freePort();
    const agentTarget = `127.0.0.1:${agentPort}`;
    const apiserverJob = { targets: [apiserver], scheme: 'https' as const, bearerToken: TOKEN, tls: { caFile: join(dir, 'ca.crt') } };
    const agentJob = { targets: [agentTarget], scheme: 'https' as const, bearerToken: TOKEN, tls: { insecureSkipVerify: true } };
    // Prometheus first scrapes about 5 s after it starts: it starts while the agent does.
    const prometheus = startPrometheus({
      nativeHistograms,
      scrapeConfigs: [
        { jobName: 'apiserver', ...apiserverJob },
        { jobName: 'apiserver-slis', metricsPath: '/metrics/slis', ...apiserverJob },
        { jobName: 'node-agent', ...agentJob },
        { jobName: 'node-agent-slis', metricsPath: '/metrics/slis', ...agentJob },
      ],
    });
    writeFileSync(join(dir, 'agent.yaml'), agentConfig(join(dir, 'logs')));
    writeFileSync(join(dir, 'rbac.yaml'), SCRAPER_RBAC);
    const [agent] = await Promise.all([
      startMemkube(
        [
          'node-agent',
          `--config=${join(dir, 'agent.yaml')}`,
          `--kubeconfig=${kubeconfig}`,
          `--container-runtime-endpoint=unix://${criSocket()}`,
          `--root-dir=${join(dir, NODE)}`,
          `--cert-dir=${join(dir, NODE, 'pki')}`,
          `--hostname-override=${NODE}`,
          '--node-ip=127.0.0.1',
          '--address=127.0.0.1',
          `--port=${agentPort}`,
          ...gates,
        ],
        START_TIMEOUT_MS,
      ),
      ok('apply', '-f', join(dir, 'rbac.yaml')),
    ]);
    Object.assign(stack, { agent, agentUrl: `https://${agentTarget}`, ca, prometheus: await prometheus });
    return stack as Stack;
  } catch (err) {
    await stopStack(stack);
    throw err;
  }
}

async function stopStack(stack: Partial<Stack> | undefined): Promise<void> {
  if (!stack) return;
  await stack.prometheus?.stop();
  await stack.agent?.stop();
  await stack.serve?.stop();
  if (stack.dir) rmSync(stack.dir, { recursive: true, force: true });
}

/** The requests whose metrics the tests look for: a create, a get and a list of ConfigMaps, by kubectl. */
async function makeRequests(stack: Stack): Promise<void> {
  await stack.ok('create', 'configmap', 'scraped', '--from-literal=k=v');
  await stack.ok('get', 'configmap', 'scraped', '-o', 'name');
  await stack.ok('get', 'configmaps', '-o', 'name');
  // The health checks count when they run: once per component, so that the SLI series exist.
  expect((await get(`${stack.serve.url}/readyz`, { ca: stack.ca })).status).toBe(200);
  expect((await get(`${stack.serve.url}/livez`, { ca: stack.ca })).status).toBe(200);
  expect((await get(`${stack.agentUrl}/healthz`)).status).toBe(200);
}

/** Expects `path` of a component to answer 200 with an exposition promtool passes but for upstream names' findings. */
async function expectCleanExposition(url: string, ca: string | undefined): Promise<string> {
  const answer = await get(url, ca !== undefined ? { ca } : {});
  expect(answer.status, `GET ${url}: ${answer.body.slice(0, 300)}`).toBe(200);
  expect(answer.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  const check = await checkMetrics(answer.body);
  expect(check.parseError, `promtool could not parse ${url}`).toBeUndefined();
  expect(unacceptedProblems(check.problems), `promtool check metrics of ${url}:\n${check.output}`).toEqual([]);
  return answer.body;
}

const valueOf = (s: PromSample | undefined) => Number(s?.value?.[1] ?? NaN);
const atLeastOne = (r: PromSample[]) => r.length > 0 && r.every((s) => valueOf(s) >= 1);

describe.skipIf(!availability.available)('a real Prometheus scraping memkube serve and the node agent (text formats)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack(false);
    await makeRequests(stack);
    // Every target up first: a component that does not serve fails here, once, with each scrape's error.
    await stack.prometheus.waitForSeries('up == 1', (r) => r.length === 4);
  }, 180_000);
  afterAll(() => stopStack(stack));

  it('serves /metrics and /metrics/slis on both components that promtool check metrics passes', async () => {
    const apiserver = await expectCleanExposition(`${stack.serve.url}/metrics`, stack.ca);
    expect(apiserver).toMatch(/^# TYPE apiserver_request_total counter$/m);
    await expectCleanExposition(`${stack.serve.url}/metrics/slis`, stack.ca);
    const agent = await expectCleanExposition(`${stack.agentUrl}/metrics`, undefined);
    expect(agent).toMatch(/^kubelet_/m);
    await expectCleanExposition(`${stack.agentUrl}/metrics/slis`, undefined);
  });

  it("scrapes every target up, with the scrape user's token", async () => {
    const up = await stack.prometheus.waitForSeries('up == 1', (r) => r.length === 4);
    expect(up.map((s) => s.metric.job).sort()).toEqual(['apiserver', 'apiserver-slis', 'node-agent', 'node-agent-slis']);
  });

  it('answers apiserver_request_total by verb, resource and code for the requests kubectl made', async () => {
    const base = 'apiserver_request_total{job="apiserver",group="",version="v1",resource="configmaps"';
    for (const [verb, code, scope] of [
      ['POST', '201', 'resource'],
      ['GET', '200', 'resource'],
      ['LIST', '200', 'namespace'],
    ] as const) {
      const [series] = await stack.prometheus.waitForSeries(`${base},verb="${verb}",code="${code}"}`, atLeastOne);
      expect(series?.metric).toMatchObject({ verb, code, scope, component: 'apiserver', resource: 'configmaps', instance: new URL(stack.serve.url).host });
    }
  });

  it('answers the classic histogram of request durations, and no native one', async () => {
    const buckets = await stack.prometheus.waitForSeries('apiserver_request_duration_seconds_bucket{job="apiserver",verb="POST",resource="configmaps"}');
    expect(buckets.map((s) => s.metric.le)).toContain('+Inf');
    expect(await stack.prometheus.query('histogram_count(apiserver_request_duration_seconds{job="apiserver"})')).toEqual([]);
  });

  it("answers cluster_healthcheck and cluster_healthchecks_total from the API server's /metrics/slis", async () => {
    const checks = await stack.prometheus.waitForSeries('cluster_healthcheck{job="apiserver-slis",type="readyz"}');
    expect(checks.map((s) => s.metric.name)).toContain('ping');
    expect(checks.every((s) => valueOf(s) === 1)).toBe(true);
    await stack.prometheus.waitForSeries('cluster_healthcheck{job="apiserver-slis",type="livez",name="ping"} == 1');
    await stack.prometheus.waitForSeries('cluster_healthchecks_total{job="apiserver-slis",type="readyz",name="ping",status="success"}', atLeastOne);
  });

  it("answers the agent's kubelet series and its health checks from /metrics/slis", async () => {
    const [node] = await stack.prometheus.waitForSeries(`kubelet_node_name{job="node-agent",node="${NODE}"}`);
    expect(valueOf(node)).toBe(1);
    const checks = await stack.prometheus.waitForSeries('cluster_healthcheck{job="node-agent-slis",type="healthz"}');
    expect(checks.map((s) => s.metric.name)).toContain('ping');
  });
});

describe.skipIf(!availability.available)('a real Prometheus with native histograms scraping memkube serve and the node agent (protobuf)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack(true);
    await makeRequests(stack);
    await stack.prometheus.waitForSeries('up == 1', (r) => r.length === 4);
  }, 180_000);
  afterAll(() => stopStack(stack));

  it('still serves classic-only text that promtool check metrics passes', async () => {
    await expectCleanExposition(`${stack.serve.url}/metrics`, stack.ca);
    await expectCleanExposition(`${stack.agentUrl}/metrics`, undefined);
  });

  it('answers protobuf to the Accept header Prometheus sends with native histograms on', async () => {
    const accept = 'application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.7,text/plain;version=0.0.4;q=0.3,*/*;q=0.2';
    for (const [url, ca] of [
      [`${stack.serve.url}/metrics`, stack.ca],
      [`${stack.agentUrl}/metrics`, undefined],
    ] as const) {
      const answer = await get(url, { accept, ...(ca !== undefined ? { ca } : {}) });
      expect(answer.status).toBe(200);
      expect(answer.contentType).toMatch(/^application\/vnd\.google\.protobuf; ?proto=io\.prometheus\.client\.MetricFamily; ?encoding=delimited/);
    }
  });

  it('answers queries only a native histogram answers: histogram_count, histogram_quantile without _bucket, and histogram samples', async () => {
    const selector = 'apiserver_request_duration_seconds{job="apiserver",verb="POST",resource="configmaps"}';
    const [count] = await stack.prometheus.waitForSeries(`histogram_count(${selector})`, atLeastOne);
    expect(count?.metric).toMatchObject({ verb: 'POST', resource: 'configmaps' });
    const [quantile] = await stack.prometheus.waitForSeries(`histogram_quantile(0.9, ${selector})`);
    expect(valueOf(quantile)).toBeGreaterThan(0);
    const [sample] = await stack.prometheus.query(selector);
    expect(sample?.histogram?.[1].count).toBeDefined();
    expect(sample?.value).toBeUndefined();
  });

  it("keeps the agent's histograms native too", async () => {
    // histogram_count ignores float series: it answers one series per native histogram of the job.
    const native = await stack.prometheus.waitForSeries('histogram_count({job="node-agent"})');
    expect(native.every((s) => s.metric.job === 'node-agent')).toBe(true);
  });

  it('scrapes every target up, and still answers the counters and SLIs', async () => {
    await stack.prometheus.waitForSeries('up == 1', (r) => r.length === 4);
    await stack.prometheus.waitForSeries('apiserver_request_total{job="apiserver",resource="configmaps",verb="POST"}', atLeastOne);
    await stack.prometheus.waitForSeries('cluster_healthcheck{job="apiserver-slis",type="readyz",name="ping"} == 1');
    await stack.prometheus.waitForSeries(`kubelet_node_name{job="node-agent",node="${NODE}"} == 1`);
  });
});
