/**
 * A load generator for any HTTP server: keeps `concurrency` requests in flight over keep-alive
 * connections for a duration (or a number of requests) and reports requests/s, latency
 * percentiles, status-code counts and errors. `bench/run.ts` uses {@link runLoad} for the HTTP
 * figures; `tsx bench/load.ts --help` shows the command line.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { readFileSync, realpathSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { benchConfigMap } from './configmap.js';
import { formatNumber, percentiles, type Percentiles } from './stats.js';

/** What {@link runLoad} sends, and for how long. */
export interface LoadOptions {
  /** Base URL of the server, e.g. `http://127.0.0.1:6443`. */
  url: string;
  /** Request path with query, `/` by default. */
  path?: string;
  /** `GET` by default. */
  method?: string;
  headers?: Record<string, string>;
  /** The same body for every request. */
  body?: string | Buffer;
  /** A body per request (its sequence number, from 0); wins over `body`. */
  makeBody?: (i: number) => string | Buffer;
  /** Requests in flight at once (and sockets in the keep-alive pool): 16 by default. */
  concurrency?: number;
  /** Stop starting requests after this long (measured part only), 5 s by default unless `requests` is set. */
  durationMs?: number;
  /** Stop after this many measured requests. */
  requests?: number;
  /** Run this long first without recording, to open connections and warm up both sides. */
  warmupMs?: number;
  /** A request with no complete answer after this long counts as an error; 10 s by default. */
  timeoutMs?: number;
  /** HTTPS: accept any certificate (memkube serve --tls is self-signed). */
  insecure?: boolean;
}

/** What {@link runLoad} measured. */
export interface LoadResult {
  method: string;
  url: string;
  concurrency: number;
  /** Requests answered (any status) in the measured part. */
  requests: number;
  /** Requests that ended in a transport error or timeout. */
  errors: number;
  /** Wall time of the measured part, in seconds. */
  seconds: number;
  /** Answered requests per second. */
  requestsPerSecond: number;
  /** Latency of answered requests, in milliseconds, from sending to the last byte of the body. */
  latencyMs: Percentiles;
  /** Answer count by status code. */
  statusCodes: Record<string, number>;
  /** Error count by message. */
  errorMessages: Record<string, number>;
}

/** Go-style durations (`500ms`, `5s`, `1m30s`) or a bare number of seconds, in milliseconds. */
export function parseDuration(text: string): number {
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/y;
  let total = 0;
  let at = 0;
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) throw new Error(`invalid duration ${JSON.stringify(text)}: use e.g. 500ms, 5s, 1m30s`);
    total += Number(m[1]) * units[m[2]!]!;
    at = re.lastIndex;
  }
  if (at === 0) throw new Error(`invalid duration ${JSON.stringify(text)}: use e.g. 500ms, 5s, 1m30s`);
  return total;
}

/**
 * Bodies of unique ConfigMaps of about 1 KB (see `bench/configmap.ts`), named `<prefix>-<i>`; the
 * prefix defaults to a random one so repeated runs against the same server do not collide.
 */
export function configMapBodies(prefix = `load-${randomBytes(4).toString('hex')}`): (i: number) => string {
  return (i) => JSON.stringify(benchConfigMap(`${prefix}-${i}`));
}

function countInto(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

/** Runs the load and resolves with what was measured; never rejects for request failures. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const base = new URL(options.url);
  const https = base.protocol === 'https:';
  const concurrency = Math.max(1, options.concurrency ?? 16);
  const method = (options.method ?? 'GET').toUpperCase();
  const path = options.path ?? '/';
  const timeoutMs = options.timeoutMs ?? 10_000;
  const durationMs = options.durationMs ?? (options.requests === undefined ? 5000 : Infinity);
  const limit = options.requests ?? Infinity;
  const warmupMs = options.warmupMs ?? 0;
  // One pool of kept-alive sockets, as many as requests in flight, so no request waits for a socket
  // and none opens a new connection once the pool is full.
  const agentOptions = { keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency };
  const agent = https ? new HttpsAgent({ ...agentOptions, rejectUnauthorized: !options.insecure }) : new HttpAgent(agentOptions);
  const send = https ? httpsRequest : httpRequest;

  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  const errorMessages: Record<string, number> = {};
  let answered = 0;
  let errors = 0;
  let started = 0;
  let seq = 0;

  const one = (): Promise<void> =>
    new Promise((resolve) => {
      const body = options.makeBody ? options.makeBody(seq++) : options.body;
      const headers: Record<string, string | number> = { ...options.headers };
      if (body !== undefined) {
        headers['content-length'] = Buffer.byteLength(body);
        if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
      }
      const t0 = performance.now();
      let done = false;
      // Set once the request exists; `finish` may run before that (a request node:http refuses).
      let timer: NodeJS.Timeout | undefined = undefined;
      const finish = (status: number | undefined, error?: Error) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (status !== undefined) {
          latencies.push(performance.now() - t0);
          countInto(statusCodes, String(status));
          answered++;
        } else {
          errors++;
          countInto(errorMessages, error?.message ?? 'unknown error');
        }
        resolve();
      };
      let req: ReturnType<typeof send>;
      try {
        req = send({ protocol: base.protocol, hostname: base.hostname, port: base.port, path, method, headers, agent }, (res: IncomingMessage) => {
          // Read the whole body: an answer counts once its last byte arrived.
          res.on('data', () => {});
          res.on('end', () => finish(res.statusCode));
          res.on('error', (e) => finish(undefined, e));
        });
      } catch (e) {
        // e.g. a header value node:http refuses: an error of this request, not of the run.
        finish(undefined, e instanceof Error ? e : new Error(String(e)));
        return;
      }
      timer = setTimeout(() => req.destroy(new Error(`timeout after ${timeoutMs} ms`)), timeoutMs);
      req.on('error', (e) => finish(undefined, e));
      req.end(body);
    });

  const phase = async (ms: number, max: number, record: boolean): Promise<number> => {
    const t0 = performance.now();
    const deadline = t0 + ms;
    const worker = async () => {
      while (performance.now() < deadline && started < max) {
        started++;
        await one();
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const seconds = (performance.now() - t0) / 1000;
    if (!record) {
      latencies.length = 0;
      for (const k of Object.keys(statusCodes)) delete statusCodes[k];
      for (const k of Object.keys(errorMessages)) delete errorMessages[k];
      answered = errors = started = 0;
    }
    return seconds;
  };

  try {
    if (warmupMs > 0) await phase(warmupMs, Infinity, false);
    const seconds = await phase(durationMs, limit, true);
    return {
      method,
      url: new URL(path, base).href,
      concurrency,
      requests: answered,
      errors,
      seconds,
      requestsPerSecond: answered / seconds,
      latencyMs: percentiles(latencies),
      statusCodes,
      errorMessages,
    };
  } finally {
    agent.destroy();
  }
}

/** Command-line options of the load generator. */
export interface LoadCommand {
  options: LoadOptions;
  json: boolean;
  help: boolean;
}

/** The `--help` text. */
export const LOAD_USAGE = `usage: tsx bench/load.ts --url URL [options]

Keeps --concurrency requests in flight over keep-alive connections and prints requests/s,
latency p50/p90/p99/max, status-code counts and errors.

  --url URL              server base URL (required), e.g. http://127.0.0.1:6443
  --path PATH            request path and query (default /)
  --method METHOD        HTTP method (default GET; POST with --create-configmaps)
  --header 'K: V'        extra request header (repeatable)
  --body TEXT            request body, the same for every request
  --body-file FILE       request body read from FILE
  --content-type TYPE    content type of a body (default application/json)
  --create-configmaps    POST a unique ~1 KB ConfigMap per request
                         (path default /api/v1/namespaces/NS/configmaps)
  --namespace NS         namespace for --create-configmaps (default default)
  --concurrency N        requests in flight and sockets kept alive (default 16)
  --duration D           how long to measure (default 5s; 500ms, 5s, 1m30s, or seconds)
  --requests N           stop after N measured requests instead
  --warmup D             run this long first without recording (default 0)
  --timeout D            a request without an answer after D is an error (default 10s)
  --insecure             accept any TLS certificate (memkube serve --tls)
  --json                 print the result as JSON
  --help                 this text

Exit status: 0, or 1 when any request failed with a transport error or timeout.`;

/** Parses the load generator's command line (without node and the script). Throws on bad flags. */
export function parseLoadArgs(argv: readonly string[]): LoadCommand {
  let url: string | undefined;
  let path: string | undefined;
  let method: string | undefined;
  let body: string | Buffer | undefined;
  let contentType: string | undefined;
  let createConfigMaps = false;
  let namespace = 'default';
  const headers: Record<string, string> = {};
  const options: Partial<LoadOptions> = {};
  let json = false;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    const count = (): number => {
      const v = value();
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} needs a positive whole number, not ${JSON.stringify(v)}`);
      return n;
    };
    switch (flag) {
      case '--url':
        url = value();
        break;
      case '--path':
        path = value();
        break;
      case '--method':
        method = value();
        break;
      case '--header': {
        const h = value();
        const colon = h.indexOf(':');
        if (colon <= 0) throw new Error(`--header needs 'Name: value', not ${JSON.stringify(h)}`);
        headers[h.slice(0, colon).trim()] = h.slice(colon + 1).trim();
        break;
      }
      case '--body':
        body = value();
        break;
      case '--body-file':
        body = readFileSync(value());
        break;
      case '--content-type':
        contentType = value();
        break;
      case '--create-configmaps':
        createConfigMaps = true;
        break;
      case '--namespace':
        namespace = value();
        break;
      case '--concurrency':
        options.concurrency = count();
        break;
      case '--duration':
        options.durationMs = parseDuration(value());
        break;
      case '--requests':
        options.requests = count();
        break;
      case '--warmup':
        options.warmupMs = parseDuration(value());
        break;
      case '--timeout':
        options.timeoutMs = parseDuration(value());
        break;
      case '--insecure':
        options.insecure = true;
        break;
      case '--json':
        json = true;
        break;
      case '--help':
      case '-h':
        help = true;
        break;
      default:
        throw new Error(`unknown flag ${JSON.stringify(flag)}`);
    }
  }
  if (help) return { options: { url: url ?? '' }, json, help };
  if (!url) throw new Error('--url is required');
  new URL(url); // throws for a malformed URL before any request
  if (createConfigMaps && body !== undefined) throw new Error('--create-configmaps makes its own bodies; drop --body/--body-file');
  if (contentType) headers['content-type'] = contentType;
  const result: LoadOptions = { ...options, url, headers };
  if (createConfigMaps) {
    result.method = method ?? 'POST';
    result.path = path ?? `/api/v1/namespaces/${encodeURIComponent(namespace)}/configmaps`;
    result.makeBody = configMapBodies();
  } else {
    result.method = method ?? (body === undefined ? 'GET' : 'POST');
    result.path = path ?? '/';
    if (body !== undefined) result.body = body;
  }
  return { options: result, json, help };
}

/** The result as the text the command prints. */
export function formatLoadResult(r: LoadResult): string {
  const lat = r.latencyMs;
  const codes =
    Object.entries(r.statusCodes)
      .map(([code, n]) => `${code} ×${n}`)
      .join(', ') || 'none';
  const lines = [
    `${r.method} ${r.url}  concurrency ${r.concurrency}, ${r.seconds.toFixed(2)} s`,
    `requests:   ${r.requests} answered, ${formatNumber(r.requestsPerSecond)} req/s`,
    `latency ms: p50 ${formatNumber(lat.p50)}  p90 ${formatNumber(lat.p90)}  p99 ${formatNumber(lat.p99)}  max ${formatNumber(lat.max)}`,
    `status:     ${codes}`,
    `errors:     ${r.errors}`,
  ];
  for (const [message, n] of Object.entries(r.errorMessages)) lines.push(`  ${n} × ${message}`);
  return lines.join('\n');
}

async function main(argv: readonly string[]): Promise<number> {
  let command: LoadCommand;
  try {
    command = parseLoadArgs(argv);
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n\n${LOAD_USAGE}\n`);
    return 2;
  }
  if (command.help) {
    process.stdout.write(`${LOAD_USAGE}\n`);
    return 0;
  }
  const result = await runLoad(command.options);
  process.stdout.write(command.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatLoadResult(result)}\n`);
  return result.errors > 0 ? 1 : 0;
}

// Run as a command only when this file is the entry point, not when bench/run.ts imports it.
function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}
if (isEntryPoint()) process.exitCode = await main(process.argv.slice(2));
