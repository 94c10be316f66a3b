/**
 * Fault injection and the request log of caller requests: what `cluster.faults` and
 * `cluster.requests` are. Both sit on the one function every door's requests pass through (the
 * built-in controllers bypass it), so a fault or a log entry looks the same whether the request
 * came over HTTP, an adapter, `cluster.fetch` or the in-process client.
 */
import { ApiError } from '../../machinery/errors.js';
import type { ApiRequest, ApiResponse, WatchStream } from '../../machinery/request.js';
import { faultError } from './fault-errors.js';
import { validateFaultSpec } from './validate.js';
import { faultedWatch } from './watch-fault.js';
import type { FaultAnswer, FaultHandle, FaultMatch, FaultSpec, RequestLogEntry } from './types.js';

type Handler = (req: ApiRequest) => Promise<ApiResponse>;

/** The clock delays are measured on. */
export interface FaultClock {
  now(): number;
  /** Called after each manual move of the clock; answers a function that unregisters. */
  onAdvance?(listener: () => void): () => void;
  /** Whether the clock also moves with real time (then a delay also ends by itself). */
  readonly realTime?: boolean;
}

class Fault implements FaultHandle {
  hits = 0;
  active = true;
  constructor(
    readonly spec: FaultSpec,
    private readonly owner: Faults,
  ) {}
  remove(): void {
    this.owner.remove(this);
  }
}

function matches(m: FaultMatch | undefined, answer: FaultAnswer, req: ApiRequest): boolean {
  if (typeof answer === 'object' && 'watch' in answer && req.verb !== 'watch') return false;
  if (!m) return true;
  if (m.verb !== undefined && (typeof m.verb === 'string' ? m.verb !== req.verb : !m.verb.includes(req.verb))) return false;
  if (m.resource !== undefined && m.resource !== req.resource.resource) return false;
  if (m.group !== undefined && m.group !== req.resource.group) return false;
  if (m.namespace !== undefined && m.namespace !== (req.namespace ?? '')) return false;
  if (m.name !== undefined && m.name !== (req.name ?? '')) return false;
  if (m.subresource !== undefined && m.subresource !== (req.subresource ?? '')) return false;
  if (m.user !== undefined && m.user !== req.user.username) return false;
  return m.when === undefined || m.when(req);
}

/**
 * The faults of one cluster (`cluster.faults`), tried in the order they were added: the first that matches answers.
 * @category Testing
 */
export class Faults {
  private readonly list: Fault[] = [];

  /** Adds a fault; throws a TypeError (adding nothing) when `spec` is unusable. */
  add(spec: FaultSpec): FaultHandle {
    validateFaultSpec(spec);
    const fault = new Fault(spec, this);
    this.list.push(fault);
    return fault;
  }

  /** Removes every fault. */
  clear(): void {
    for (const f of this.list) f.active = false;
    this.list.length = 0;
  }

  /** How many faults are in place. */
  get size(): number {
    return this.list.length;
  }

  /** @internal */
  remove(fault: Fault): void {
    fault.active = false;
    const at = this.list.indexOf(fault);
    if (at >= 0) this.list.splice(at, 1);
  }

  /** The first fault for `req`, counted as a hit (and removed once used up); undefined when none matches. @internal */
  take(req: ApiRequest): FaultAnswer | undefined {
    for (const fault of this.list) {
      if (!matches(fault.spec.match, fault.spec.answer, req)) continue;
      fault.hits++;
      if (fault.spec.times !== undefined && fault.hits >= fault.spec.times) this.remove(fault);
      return fault.spec.answer;
    }
    return undefined;
  }
}

/**
 * The log of caller requests (`cluster.requests`): off until `start()`, so it costs nothing unused.
 * @category Testing
 */
export class RequestLog {
  private kept: RequestLogEntry[] = [];
  private on = false;

  /** Starts recording (again); entries already kept stay. */
  start(): void {
    this.on = true;
  }
  /** Stops recording; the entries stay until `clear()`. */
  stop(): void {
    this.on = false;
  }
  /** Forgets every entry. */
  clear(): void {
    this.kept = [];
  }
  /** Whether requests are being recorded. */
  get recording(): boolean {
    return this.on;
  }
  /** The requests recorded, oldest first. */
  get entries(): readonly RequestLogEntry[] {
    return this.kept;
  }

  /** @internal */
  record(req: ApiRequest, code: number, reason: string | undefined, faulted: boolean): void {
    if (!this.on) return;
    const { group, version, resource } = req.resource;
    const entry: RequestLogEntry = { verb: req.verb, group, version, resource, user: req.user.username, code, faulted };
    if (req.subresource !== undefined) entry.subresource = req.subresource;
    if (req.namespace !== undefined) entry.namespace = req.namespace;
    if (req.name !== undefined) entry.name = req.name;
    if (reason !== undefined) entry.reason = reason;
    this.kept.push(entry);
  }
}

/** Resolves once the clock is `ms` past now: on its manual moves, and with real time too when it follows it. */
function delayOn(clock: FaultClock, ms: number): Promise<void> {
  const deadline = clock.now() + ms;
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      if (clock.now() < deadline) return;
      unregister?.();
      if (timer) clearTimeout(timer);
      resolve();
    };
    const unregister = clock.onAdvance?.(check);
    if (clock.realTime) (timer = setTimeout(check, ms)).unref?.();
    check();
  });
}

async function answerWith(answer: FaultAnswer, req: ApiRequest, pass: Handler, clock: FaultClock): Promise<ApiResponse> {
  if (typeof answer === 'function') return answer(req, pass);
  if ('error' in answer) throw faultError(answer, req);
  if ('delayMs' in answer) {
    await delayOn(clock, answer.delayMs);
    return pass(req);
  }
  const res = await pass(req);
  const start = Number(req.listOptions?.resourceVersion ?? 0);
  const body = faultedWatch(res.body as WatchStream, answer.watch, answer.afterEvents ?? 0, Number.isSafeInteger(start) ? start : 0);
  return { ...res, body };
}

/**
 * `pass` with the faults applied and the requests logged. While no fault is in place and the log
 * is off, a request costs one check of two fields and nothing is allocated.
 */
export function interceptedRequests(pass: Handler, faults: Faults, log: RequestLog, clock: FaultClock): Handler {
  const intercepted = async (req: ApiRequest): Promise<ApiResponse> => {
    const answer = faults.size > 0 ? faults.take(req) : undefined;
    try {
      const res = answer === undefined ? await pass(req) : await answerWith(answer, req, pass, clock);
      log.record(req, res.code, undefined, answer !== undefined);
      return res;
    } catch (e) {
      log.record(req, e instanceof ApiError ? e.code : 500, e instanceof ApiError ? e.reason : 'InternalError', answer !== undefined);
      throw e;
    }
  };
  return (req) => (faults.size === 0 && !log.recording ? pass(req) : intercepted(req));
}
