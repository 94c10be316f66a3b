/**
 * Where a log call was made, as klog reports it: the file and line of the caller. Read from a V8
 * stack trace only when needed (a line is written, or vmodule must know the file).
 */

/** A call site: the file's path and line. */
export interface CallSite {
  readonly path: string;
  readonly line: number;
}

const FRAME = /\(?((?:file:\/\/)?[^()\s]+?):(\d+):\d+\)?$/;

/** The call site of whoever called `below` (a function on the current stack). */
export function callSiteOf(below: (...args: never[]) => unknown): CallSite {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 1;
  try {
    Error.captureStackTrace(holder, below);
  } finally {
    Error.stackTraceLimit = limit;
  }
  const frame = holder.stack?.split('\n')[1]?.trim() ?? '';
  const m = FRAME.exec(frame);
  if (!m) return { path: '???', line: 1 };
  return { path: m[1]!.replace(/^file:\/\//, ''), line: Number(m[2]) };
}

/** klog's text caller: the base name and line, `serve.ts:123`. */
export function shortFile(site: CallSite): string {
  return `${site.path.slice(site.path.lastIndexOf('/') + 1)}:${site.line}`;
}

/** zap's ShortCallerEncoder: the last directory, the file and line, `cli/serve.ts:123`. */
export function shortCaller(site: CallSite): string {
  const parts = site.path.split('/');
  return `${parts.slice(-2).join('/')}:${site.line}`;
}
