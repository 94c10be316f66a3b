/**
 * kube-apiserver's audit flags (k8s.io/apiserver `pkg/server/options/audit.go`): `--audit-policy-file`,
 * the log backend's `--audit-log-*` and the webhook backend's `--audit-webhook-*`, each with its
 * default, parsed as pflag parses its type (with pflag's errors) and validated with
 * `AuditOptions.Validate`'s messages. A backend's flags are only validated when the backend is on
 * (`--audit-log-path`, `--audit-webhook-config-file`).
 */
import { goFormatFloat, goQuote } from '../../util/go-format.js';
import { parseGoDuration } from '../../util/go-time.js';

/** The modes a backend can run in. */
export const AUDIT_FLAG_MODES = ['batch', 'blocking', 'blocking-strict'] as const;
/** The log formats. */
export const AUDIT_FLAG_LOG_FORMATS = ['legacy', 'json'] as const;
/** The one audit API version kube-apiserver still writes. */
export const AUDIT_GROUP_VERSION = 'audit.k8s.io/v1';

/** The batching flags of one backend (`--audit-<plugin>-batch-*`). */
export interface AuditBatchFlags {
  bufferSize: number;
  maxBatchSize: number;
  maxBatchWaitMs: number;
  throttleEnable: boolean;
  throttleQPS: number;
  throttleBurst: number;
}

/** The truncation flags of one backend (`--audit-<plugin>-truncate-*`). */
export interface AuditTruncateFlags {
  enabled: boolean;
  maxBatchSize: number;
  maxEventSize: number;
}

/** What both backends have: a mode, batching, truncation, an API version. */
export interface AuditBackendFlags {
  /** As given; validated against {@link AUDIT_FLAG_MODES}. */
  mode: string;
  batch: AuditBatchFlags;
  truncate: AuditTruncateFlags;
  /** `--audit-<plugin>-version`, as given. */
  version: string;
}

/** The log backend's flags. */
export interface AuditLogFlags extends AuditBackendFlags {
  /** `--audit-log-path`: the file, `-` for standard output; the backend is off without it. */
  path: string;
  maxAge: number;
  maxBackups: number;
  maxSize: number;
  /** As given; validated against {@link AUDIT_FLAG_LOG_FORMATS}. */
  format: string;
  compress: boolean;
}

/** The webhook backend's flags. */
export interface AuditWebhookFlags extends AuditBackendFlags {
  /** `--audit-webhook-config-file`: a kubeconfig; the backend is off without it. */
  configFile: string;
  initialBackoffMs: number;
}

/** Every audit flag. */
export interface AuditFlags {
  /** `--audit-policy-file`: without it no backend records anything. */
  policyFile: string;
  log: AuditLogFlags;
  webhook: AuditWebhookFlags;
}

const truncateDefaults = (): AuditTruncateFlags => ({ enabled: false, maxBatchSize: 10 * 1024 * 1024, maxEventSize: 100 * 1024 });

/** The flags' defaults (`NewAuditOptions`). */
export function defaultAuditFlags(): AuditFlags {
  return {
    policyFile: '',
    log: {
      path: '',
      maxAge: 0,
      maxBackups: 0,
      maxSize: 0,
      format: 'json',
      compress: false,
      mode: 'blocking',
      // The log's batching: one event at a time, no wait, no throttle (and no throttle rates).
      batch: { bufferSize: 10000, maxBatchSize: 1, maxBatchWaitMs: 0, throttleEnable: false, throttleQPS: 0, throttleBurst: 0 },
      truncate: truncateDefaults(),
      version: AUDIT_GROUP_VERSION,
    },
    webhook: {
      configFile: '',
      initialBackoffMs: 10_000,
      mode: 'batch',
      batch: { bufferSize: 10000, maxBatchSize: 400, maxBatchWaitMs: 30_000, throttleEnable: true, throttleQPS: 10, throttleBurst: 15 },
      truncate: truncateDefaults(),
      version: AUDIT_GROUP_VERSION,
    },
  };
}

type Kind = 'string' | 'int' | 'int64' | 'float32' | 'duration' | 'bool';
type Setter = (f: AuditFlags, v: string | number | boolean) => void;

/** Each flag: its pflag type and where it goes. */
const FLAGS = new Map<string, { kind: Kind; set: Setter; deprecated?: string }>();

function backendFlags(plugin: 'log' | 'webhook'): void {
  const b = (f: AuditFlags) => f[plugin];
  FLAGS.set(`--audit-${plugin}-mode`, { kind: 'string', set: (f, v) => (b(f).mode = v as string) });
  FLAGS.set(`--audit-${plugin}-batch-buffer-size`, { kind: 'int', set: (f, v) => (b(f).batch.bufferSize = v as number) });
  FLAGS.set(`--audit-${plugin}-batch-max-size`, { kind: 'int', set: (f, v) => (b(f).batch.maxBatchSize = v as number) });
  FLAGS.set(`--audit-${plugin}-batch-max-wait`, { kind: 'duration', set: (f, v) => (b(f).batch.maxBatchWaitMs = v as number) });
  FLAGS.set(`--audit-${plugin}-batch-throttle-enable`, { kind: 'bool', set: (f, v) => (b(f).batch.throttleEnable = v as boolean) });
  FLAGS.set(`--audit-${plugin}-batch-throttle-qps`, { kind: 'float32', set: (f, v) => (b(f).batch.throttleQPS = v as number) });
  FLAGS.set(`--audit-${plugin}-batch-throttle-burst`, { kind: 'int', set: (f, v) => (b(f).batch.throttleBurst = v as number) });
  FLAGS.set(`--audit-${plugin}-truncate-enabled`, { kind: 'bool', set: (f, v) => (b(f).truncate.enabled = v as boolean) });
  FLAGS.set(`--audit-${plugin}-truncate-max-batch-size`, { kind: 'int64', set: (f, v) => (b(f).truncate.maxBatchSize = v as number) });
  FLAGS.set(`--audit-${plugin}-truncate-max-event-size`, { kind: 'int64', set: (f, v) => (b(f).truncate.maxEventSize = v as number) });
  FLAGS.set(`--audit-${plugin}-version`, { kind: 'string', set: (f, v) => (b(f).version = v as string) });
}
FLAGS.set('--audit-policy-file', { kind: 'string', set: (f, v) => (f.policyFile = v as string) });
FLAGS.set('--audit-log-path', { kind: 'string', set: (f, v) => (f.log.path = v as string) });
FLAGS.set('--audit-log-maxage', { kind: 'int', set: (f, v) => (f.log.maxAge = v as number) });
FLAGS.set('--audit-log-maxbackup', { kind: 'int', set: (f, v) => (f.log.maxBackups = v as number) });
FLAGS.set('--audit-log-maxsize', { kind: 'int', set: (f, v) => (f.log.maxSize = v as number) });
FLAGS.set('--audit-log-format', { kind: 'string', set: (f, v) => (f.log.format = v as string) });
FLAGS.set('--audit-log-compress', { kind: 'bool', set: (f, v) => (f.log.compress = v as boolean) });
backendFlags('log');
FLAGS.set('--audit-webhook-config-file', { kind: 'string', set: (f, v) => (f.webhook.configFile = v as string) });
FLAGS.set('--audit-webhook-initial-backoff', { kind: 'duration', set: (f, v) => (f.webhook.initialBackoffMs = v as number) });
FLAGS.set('--audit-webhook-batch-initial-backoff', {
  kind: 'duration',
  set: (f, v) => (f.webhook.initialBackoffMs = v as number),
  deprecated: 'Deprecated, use --audit-webhook-initial-backoff instead.',
});
backendFlags('webhook');

/** The names of the audit flags, `--` included. */
export const AUDIT_FLAG_NAMES: readonly string[] = [...FLAGS.keys()];

/** Whether `name` (`--audit-log-path`) is an audit flag. */
export function isAuditFlag(name: string): boolean {
  return FLAGS.has(name);
}

/** Whether the flag is a boolean, true when given alone (`--audit-log-compress`). */
export function isBooleanAuditFlag(name: string): boolean {
  return FLAGS.get(name)?.kind === 'bool';
}

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

/** Go's `underscoreOK`: an underscore only between digits, or between a base prefix and a digit. */
function underscoresOK(unsigned: string): boolean {
  let saw = '^';
  let i = 0;
  const hex = /^0[xX]/.test(unsigned);
  if (/^0[bBoOxX]/.test(unsigned)) {
    i = 2;
    saw = '0';
  }
  for (; i < unsigned.length; i++) {
    const c = unsigned[i]!;
    if (/[0-9]/.test(c) || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

/** `strconv.ParseInt(s, 0, 64)`: a sign, then decimal, `0x`, `0o`, `0b` or leading-zero octal, `_` between digits. */
function goParseInt(s: string, fn: string): bigint {
  const syntax = () => new Error(`${fn}: parsing ${goQuote(s)}: invalid syntax`);
  let body = s;
  let neg = false;
  if (body.startsWith('+') || body.startsWith('-')) {
    neg = body[0] === '-';
    body = body.slice(1);
  }
  let base = 10;
  let digits = body;
  const p = body.slice(0, 2).toLowerCase();
  if (p === '0x' || p === '0o' || p === '0b') {
    base = p === '0x' ? 16 : p === '0o' ? 8 : 2;
    digits = body.slice(2);
  } else if (body.length > 1 && body[0] === '0') {
    base = 8;
    digits = body.slice(1);
  }
  if (digits === '' || !underscoresOK(body)) throw syntax();
  const clean = digits.replace(/_/g, '');
  const valid = { 2: /^[01]+$/, 8: /^[0-7]+$/, 10: /^[0-9]+$/, 16: /^[0-9a-fA-F]+$/ }[base as 2 | 8 | 10 | 16];
  if (clean === '' || !valid.test(clean)) throw syntax();
  let v = 0n;
  for (const c of clean) v = v * BigInt(base) + BigInt(parseInt(c, 16));
  if (neg) v = -v;
  if (v > INT64_MAX || v < INT64_MIN) throw new Error(`${fn}: parsing ${goQuote(s)}: value out of range`);
  return v;
}

/** `strconv.ParseFloat(s, 32)` of the decimal forms and Inf/NaN spellings. */
function goParseFloat32(s: string): number {
  const fn = 'strconv.ParseFloat';
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(s);
  if (special) return special[2]!.toLowerCase() === 'nan' ? NaN : special[1] === '-' ? -Infinity : Infinity;
  if (!/^[+-]?(\d(_?\d)*(\.(\d(_?\d)*)?)?|\.\d(_?\d)*)([eE][+-]?\d+)?$/.test(s) || s.includes('_')) {
    throw new Error(`${fn}: parsing ${goQuote(s)}: invalid syntax`);
  }
  const v = Number(s);
  if (!Number.isFinite(Math.fround(v))) throw new Error(`${fn}: parsing ${goQuote(s)}: value out of range`);
  return v;
}

function parseBool(s: string): boolean {
  if (/^(1|t|T|TRUE|true|True)$/.test(s)) return true;
  if (/^(0|f|F|FALSE|false|False)$/.test(s)) return false;
  throw new Error(`strconv.ParseBool: parsing ${goQuote(s)}: invalid syntax`);
}

/**
 * Sets one flag from its text, as pflag does; throws pflag's `invalid argument "x" for "--flag"
 * flag: ...` for a value its type does not read. Answers the deprecation warning pflag prints for
 * a deprecated flag.
 */
export function setAuditFlag(flags: AuditFlags, name: string, text: string): string | undefined {
  const flag = FLAGS.get(name);
  if (!flag) throw new Error(`unknown flag: ${name}`);
  let value: string | number | boolean;
  try {
    switch (flag.kind) {
      case 'string':
        value = text;
        break;
      case 'int':
      case 'int64':
        value = Number(goParseInt(text, 'strconv.ParseInt'));
        break;
      case 'float32':
        value = goParseFloat32(text);
        break;
      case 'bool':
        value = parseBool(text);
        break;
      case 'duration': {
        const ns = parseGoDuration(text);
        if (ns === undefined) throw new Error(`time: invalid duration ${goQuote(text)}`);
        value = Number(ns) / 1e6;
        break;
      }
    }
  } catch (e) {
    throw new Error(`invalid argument ${goQuote(text)} for ${goQuote(name)} flag: ${(e as Error).message}`);
  }
  flag.set(flags, value);
  return flag.deprecated ? `Flag ${name} has been deprecated, ${flag.deprecated}` : undefined;
}

/** `schema.ParseGroupVersion` and the known-version check. */
function validateGroupVersion(text: string): string | undefined {
  if (text !== '' && text !== '/' && text.split('/').length > 2) return `unexpected GroupVersion string: ${text}`;
  if (text !== AUDIT_GROUP_VERSION) return `invalid group version, allowed versions are [${goQuote(AUDIT_GROUP_VERSION)}]`;
  return undefined;
}

/** `validateBackendBatchOptions`: the first problem of a backend's mode and batching. */
function validateBatch(plugin: string, b: AuditBackendFlags): string | undefined {
  if (!(AUDIT_FLAG_MODES as readonly string[]).includes(b.mode)) {
    return `invalid audit ${plugin} mode ${b.mode}, allowed modes are ${goQuote(AUDIT_FLAG_MODES.join(','))}`;
  }
  if (b.mode !== 'batch') return undefined;
  const c = b.batch;
  if (c.bufferSize <= 0) return `invalid audit batch ${plugin} buffer size ${c.bufferSize}, must be a positive number`;
  if (c.maxBatchSize <= 0) return `invalid audit batch ${plugin} max batch size ${c.maxBatchSize}, must be a positive number`;
  if (c.throttleEnable) {
    // NaN passes Go's `<= 0`; memkube refuses it too, since no rate can be made of it.
    if (!(c.throttleQPS > 0)) return `invalid audit batch ${plugin} throttle QPS ${goFormatFloat(c.throttleQPS)}, must be a positive number`;
    if (c.throttleBurst <= 0) return `invalid audit batch ${plugin} throttle burst ${c.throttleBurst}, must be a positive number`;
  }
  return undefined;
}

/** `AuditTruncateOptions.Validate` (run whether truncation is on or not). */
function validateTruncate(plugin: string, t: AuditTruncateFlags): string | undefined {
  if (t.maxEventSize <= 0) return `invalid audit truncate ${plugin} max event size ${t.maxEventSize}, must be a positive number`;
  if (t.maxBatchSize < t.maxEventSize) {
    return `invalid audit truncate ${plugin} max batch size ${t.maxBatchSize}, must be greater than max event size (${t.maxEventSize})`;
  }
  return undefined;
}

/** `AuditOptions.Validate`: the log's problems, then the webhook's, in kube-apiserver's order and words. */
export function validateAuditFlags(flags: AuditFlags): string[] {
  const errors: string[] = [];
  const push = (e: string | undefined) => e !== undefined && errors.push(e);
  const log = flags.log;
  if (log.path !== '') {
    push(validateBatch('log', log));
    push(validateTruncate('log', log.truncate));
    push(validateGroupVersion(log.version));
    if (!(AUDIT_FLAG_LOG_FORMATS as readonly string[]).includes(log.format)) {
      push(`invalid audit log format ${log.format}, allowed formats are ${goQuote(AUDIT_FLAG_LOG_FORMATS.join(','))}`);
    }
    if (log.maxAge < 0) push(`--audit-log-maxage ${log.maxAge} can't be a negative number`);
    if (log.maxBackups < 0) push(`--audit-log-maxbackup ${log.maxBackups} can't be a negative number`);
    if (log.maxSize < 0) push(`--audit-log-maxsize ${log.maxSize} can't be a negative number`);
  }
  const webhook = flags.webhook;
  if (webhook.configFile !== '') {
    push(validateBatch('webhook', webhook));
    push(validateTruncate('webhook', webhook.truncate));
    push(validateGroupVersion(webhook.version));
  }
  return errors;
}

/** The usage line of the audit flags, for `memkube serve`'s usage text. */
export const AUDIT_FLAGS_USAGE =
  '[--audit-policy-file FILE] [--audit-log-path FILE|-] [--audit-log-format json|legacy] [--audit-log-maxsize MB]\n' +
  '                     [--audit-log-maxbackup N] [--audit-log-maxage DAYS] [--audit-log-compress] [--audit-log-version audit.k8s.io/v1]\n' +
  '                     [--audit-webhook-config-file FILE] [--audit-webhook-initial-backoff 10s] [--audit-webhook-version audit.k8s.io/v1]\n' +
  '                     [--audit-{log,webhook}-mode batch|blocking|blocking-strict] [--audit-{log,webhook}-batch-buffer-size N]\n' +
  '                     [--audit-{log,webhook}-batch-max-size N] [--audit-{log,webhook}-batch-max-wait 30s]\n' +
  '                     [--audit-{log,webhook}-batch-throttle-enable] [--audit-{log,webhook}-batch-throttle-qps 10] [--audit-{log,webhook}-batch-throttle-burst 15]\n' +
  '                     [--audit-{log,webhook}-truncate-enabled] [--audit-{log,webhook}-truncate-max-batch-size 10485760] [--audit-{log,webhook}-truncate-max-event-size 102400]';
