/**
 * A load generator for any HTTP server: keeps `concurrency` requests in flight over keep-alive
 * connections (one request at a time on each, no pipelining; written and parsed on raw sockets by
 * bench/raw-http.ts) for a duration (or a number of requests) and reports requests/s, latency
 * percentiles, status-code counts and errors, its own CPU share and, given the server's PID, the
 * server's CPU time per request. `bench/run.ts` uses {@link runLoad} for the HTTP
 * figures; `tsx bench/load.ts --help` shows the command line.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { benchConfigMap } from './configmap.js';
import { processCpuSeconds } from './process-cpu.js';
import { RawConnection, requestHead } from './raw-http.js';
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
  /** The server's process ID, to read its CPU time over the measured part (Linux /proc). */
  serverPid?: number;
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
  /**
   * The generator's own CPU time over the measured part, as a share of one core's wall time: near 1
   * means the generator, not the server, may have been the limit.
   */
  generatorCpuShare: number;
  /** With `serverPid`: the server's CPU seconds (user + system) over the measured part. */
  serverCpuSeconds?: number;
  /** With `serverPid`: the server's CPU time per answered request, in microseconds. */
  serverCpuMicrosPerRequest?: number;
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
  const tls = base.protocol === 'https:';
  const concurrency = Math.max(1, options.concurrency ?? 16);
  const method = (options.method ?? 'GET').toUpperCase();
  const path = options.path ?? '/';
  const timeoutMs = options.timeoutMs ?? 10_000;
  const durationMs = options.durationMs ?? (options.requests === undefined ? 5000 : Infinity);
  const limit = options.requests ?? Infinity;
  const warmupMs = options.warmupMs ?? 0;
  const hostname = base.hostname.replace(/^\[(.*)\]$/, '$1');
  const target = { host: hostname, port: Number(base.port || (tls ? 443 : 80)), tls, insecure: options.insecure ?? false };
  const hasContentType = Object.keys(options.headers ?? {}).some((h) => h.toLowerCase() === 'content-type');
  // The request as bytes: built once when every request is the same, per request otherwise.
  const build = (body: string | Buffer | undefined): string | Buffer => {
    const headers: Record<string, string | number> = { ...options.headers };
    if (body !== undefined) {
      headers['content-length'] = Buffer.byteLength(body);
      if (!hasContentType) headers['content-type'] = 'application/json';
    }
    const head = requestHead(method, path, base.host, headers);
    if (body === undefined) return head;
    return typeof body === 'string' ? head + body : Buffer.concat([Buffer.from(head, 'latin1'), body]);
  };
  let fixed: string | Buffer | Error | undefined;
  if (!options.makeBody) {
    try {
      fixed = build(options.body);
    } catch (e) {
      fixed = e instanceof Error ? e : new Error(String(e));
    }
  }
  const connections = Array.from({ length: concurrency }, () => new RawConnection(target));
  // One sweep for every connection's timeout, cheaper than a timer per request.
  const sweep = setInterval(
    () => {
      const now = performance.now();
      for (const c of connections) if (c.sentAt !== undefined && now - c.sentAt > timeoutMs) c.abort(new Error(`timeout after ${timeoutMs} ms`));
    },
    Math.max(5, Math.min(250, timeoutMs / 4)),
  );

  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  const errorMessages: Record<string, number> = {};
  let answered = 0;
  let errors = 0;
  let started = 0;
  let seq = 0;

  const one = async (connection: RawConnection): Promise<void> => {
    let request: string | Buffer;
    try {
      if (fixed instanceof Error) throw fixed;
      request = fixed ?? build(options.makeBody!(seq++));
    } catch (e) {
      errors++;
      countInto(errorMessages, e instanceof Error ? e.message : String(e));
      return;
    }
    const t0 = performance.now();
    try {
      const answer = await connection.send(request, method === 'HEAD');
      latencies.push(performance.now() - t0);
      countInto(statusCodes, String(answer.status));
      answered++;
    } catch (e) {
      errors++;
      countInto(errorMessages, e instanceof Error ? e.message : String(e));
    }
  };

  const phase = async (ms: number, max: number, record: boolean) => {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const server0 = options.serverPid === undefined ? undefined : processCpuSeconds(options.serverPid);
    const deadline = t0 + ms;
    const worker = async (connection: RawConnection) => {
      while (performance.now() < deadline && started < max) {
        started++;
        await one(connection);
      }
    };
    await Promise.all(connections.map(worker));
    const seconds = (performance.now() - t0) / 1000;
    const server1 = options.serverPid === undefined ? undefined : processCpuSeconds(options.serverPid);
    const cpu = process.cpuUsage(cpu0);
    const generatorCpuShare = (cpu.user + cpu.system) / 1e6 / seconds;
    const serverCpuSeconds = server0 !== undefined && server1 !== undefined ? server1 - server0 : undefined;
    if (!record) {
      latencies.length = 0;
      for (const k of Object.keys(statusCodes)) delete statusCodes[k];
      for (const k of Object.keys(errorMessages)) delete errorMessages[k];
      answered = errors = started = 0;
    }
    return { seconds, generatorCpuShare, serverCpuSeconds };
  };

  try {
    if (warmupMs > 0) await phase(warmupMs, Infinity, false);
    const { seconds, generatorCpuShare, serverCpuSeconds } = await phase(durationMs, limit, true);
    const result: LoadResult = {
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
      generatorCpuShare,
    };
    if (serverCpuSeconds !== undefined && answered > 0) {
      result.serverCpuSeconds = serverCpuSeconds;
      result.serverCpuMicrosPerRequest = (serverCpuSeconds * 1e6) / answered;
    }
    return result;
  } finally {
    clearInterval(sweep);
    for (const c of connections) c.close();
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

Keeps --concurrency requests in flight over keep-alive connections (one at a time on each,
no pipelining) and prints requests/s, latency p50/p90/p99/max, status-code counts, errors,
the generator's own CPU share and, with --server-pid, the server's CPU time per request.

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
  --server-pid PID       also report the server's CPU time per request (Linux /proc)
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
      case '--server-pid':
        options.serverPid = count();
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
    `generator:  ${(r.generatorCpuShare * 100).toFixed(0)}% of a core`,
  ];
  if (r.serverCpuMicrosPerRequest !== undefined) lines.push(`server CPU: ${formatNumber(r.serverCpuMicrosPerRequest)} µs per request`);
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
