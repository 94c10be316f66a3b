/**
 * A logger in the manner of klog: `infoS`/`errorS` (structured) and `info`/`warning`/`error`
 * (printf-style) at a verbosity chosen with `V(n)`, written in klog's text format or
 * component-base's JSON format as a LoggingConfiguration configures them (verbosity, vmodule,
 * split streams, buffered info stream, flush frequency).
 */
import {
  flushFrequencyMs,
  infoBufferBytes,
  JSON_LOG_FORMAT,
  withLoggingDefaults,
  type LoggingConfiguration,
  type VModuleItem,
} from '../config/logging/index.js';
import { callSiteOf, shortCaller, shortFile, type CallSite } from './caller.js';
import { jsonLine } from './json-format.js';
import { klogHeader, klogStructured, type Severity } from './klog-text.js';
import { bufferedOutput, directOutput, type LogOutput, type LogStream } from './output.js';

/** What the logger reads from its surroundings; tests inject all of it. */
export interface LoggerEnvironment {
  /** Info messages of split streams; `process.stdout` by default. */
  readonly stdout?: LogStream;
  /** Everything else; `process.stderr` by default. */
  readonly stderr?: LogStream;
  /** The time, epoch milliseconds with a fraction (microseconds); `performance.timeOrigin + performance.now()` by default. */
  readonly now?: () => number;
  /** The thread id of klog's header: the process id. */
  readonly pid?: number;
  /** UTC instead of local time in the text header. */
  readonly utc?: boolean;
  /** Where a call was made; read from the stack by default. */
  readonly callSite?: (below: (...args: never[]) => unknown) => CallSite;
  /** Starts the flush timer; `setInterval` (unref'd) by default. Answers how to stop it. */
  readonly every?: (ms: number, run: () => void) => () => void;
}

/** The messages of one verbosity level (`logger.V(3)`). */
export interface Verbose {
  /** Whether messages at this level are written (for this call site when vmodule is set). */
  readonly enabled: boolean;
  infoS(msg: string, ...kv: unknown[]): void;
  info(text: string): void;
}

const defaultEvery = (ms: number, run: () => void) => {
  const timer = setInterval(run, ms);
  timer.unref();
  return () => clearInterval(timer);
};

/** A vmodule pattern as a test on a file path: a glob on the base name without extension, or on the whole path when it has a `/`. */
function vmoduleMatcher(items: readonly VModuleItem[]): (path: string) => number | undefined {
  const rules = items.map((item) => {
    const pattern = item.filePattern ?? '';
    const glob = pattern
      .replace(/[.+^${}()|\\]/g, '\\$&')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '[^/]');
    return { re: new RegExp(`^${glob}$`), full: pattern.includes('/'), v: item.verbosity ?? 0 };
  });
  return (path) => {
    const noExt = path.replace(/\.(go|ts|js|mjs|cjs|mts|cts)$/, '');
    const base = noExt.slice(noExt.lastIndexOf('/') + 1);
    for (const rule of rules) {
      if (rule.re.test(rule.full ? noExt : base)) return rule.v;
    }
    return undefined;
  };
}

/** A configured logger. */
export class Logger {
  readonly format: 'text' | 'json';
  readonly verbosity: number;
  private readonly vmoduleLevel?: (path: string) => number | undefined;
  private readonly info_: LogOutput;
  private readonly error_: LogOutput;
  private readonly now: () => number;
  private readonly pid: number;
  private readonly utc: boolean;
  private readonly site: (below: (...args: never[]) => unknown) => CallSite;
  private readonly stopTimer: () => void;

  /** A logger for a (validated) configuration; defaults fill what it leaves unset. */
  constructor(config: LoggingConfiguration = {}, env: LoggerEnvironment = {}) {
    const c = withLoggingDefaults(config);
    this.format = c.format === JSON_LOG_FORMAT ? 'json' : 'text';
    this.verbosity = c.verbosity ?? 0;
    if (this.format === 'text' && c.vmodule?.length) this.vmoduleLevel = vmoduleMatcher(c.vmodule);
    const routing = this.format === 'json' ? c.options?.json : c.options?.text;
    const stderr = env.stderr ?? process.stderr;
    this.error_ = directOutput(stderr);
    if (routing?.splitStream) {
      const size = Math.min(infoBufferBytes(routing.infoBufferSize) ?? 0, 2 * 1024 * 1024 * 1024);
      const stdout = env.stdout ?? process.stdout;
      this.info_ = size > 0 ? bufferedOutput(stdout, size) : directOutput(stdout);
    } else {
      // Without split streams everything goes to stderr, away from the program's own output.
      this.info_ = this.error_;
    }
    this.now = env.now ?? (() => performance.timeOrigin + performance.now());
    this.pid = env.pid ?? process.pid;
    this.utc = env.utc ?? false;
    this.site = env.callSite ?? callSiteOf;
    this.stopTimer = (env.every ?? defaultEvery)(Math.max(flushFrequencyMs(c.flushFrequency) ?? 5000, 1), () => this.flush());
  }

  /** The messages of verbosity `level`, enabled when `level <= verbosity` or vmodule raises this file's level. */
  V(level: number): Verbose {
    let enabled = level <= this.verbosity;
    if (!enabled && this.vmoduleLevel) {
      const fileLevel = this.vmoduleLevel(this.site(this.V).path);
      enabled = fileLevel !== undefined && level <= fileLevel;
    }
    const infoS = (msg: string, ...kv: unknown[]): void => {
      if (enabled) this.emit('I', level, msg, kv, undefined, true, infoS);
    };
    const info = (text: string): void => {
      if (enabled) this.emit('I', level, text, [], undefined, false, info);
    };
    return { enabled, infoS, info };
  }

  /** A structured info message at verbosity 0 (`klog.InfoS`). */
  infoS(msg: string, ...kv: unknown[]): void {
    this.emit('I', 0, msg, kv, undefined, true, this.infoS);
  }

  /** A structured error (`klog.ErrorS`): `err` first among the pairs in text, last in JSON. */
  errorS(err: unknown, msg: string, ...kv: unknown[]): void {
    this.emit('E', undefined, msg, kv, err, true, this.errorS);
  }

  /** A printf-style info message at verbosity 0 (`klog.Info`). */
  info(text: string): void {
    this.emit('I', 0, text, [], undefined, false, this.info);
  }

  /** A printf-style warning (`klog.Warning`). */
  warning(text: string): void {
    this.emit('W', 0, text, [], undefined, false, this.warning);
  }

  /** A printf-style error (`klog.Error`). */
  error(text: string): void {
    this.emit('E', undefined, text, [], undefined, false, this.error);
  }

  /** Writes out what the info buffer holds. */
  flush(): void {
    this.info_.flush();
  }

  /** Flushes and stops the flush timer. */
  close(): void {
    this.flush();
    this.stopTimer();
  }

  private emit(
    severity: Severity,
    v: number | undefined,
    msg: string,
    kv: readonly unknown[],
    err: unknown,
    structured: boolean,
    below: (...args: never[]) => unknown,
  ): void {
    const site = this.site(below);
    const time = this.now();
    const out = severity === 'E' || severity === 'F' ? this.error_ : this.info_;
    if (this.format === 'json') {
      out.write(`${jsonLine(time, shortCaller(site), msg, v, kv, err)}\n`);
      return;
    }
    const header = klogHeader(severity, time, this.pid, shortFile(site), this.utc);
    if (!structured) {
      out.write(`${header}${msg}${msg.endsWith('\n') ? '' : '\n'}`);
      return;
    }
    const pairs = err !== undefined && err !== null ? ['err', err, ...kv] : kv;
    out.write(`${header}${klogStructured(msg, pairs)}\n`);
  }
}
