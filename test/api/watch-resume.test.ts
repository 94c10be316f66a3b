/**
 * Property: a watch from a resourceVersion R either replays exactly the changes after R that its
 * kind, namespace, object name and label selector see (selector transitions included), in order,
 * with their types and resourceVersions, and then follows live changes; or, when R left the
 * history, sends one ERROR 410 Expired and ends. The expected events come from a small model of
 * the history the test wrote itself. Histories are longer than the (small) watch buffer, and the
 * live changes land behind an unread replay.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WatchEvent, WatchStream } from '../../src/machinery/request.js';
import type { Cluster } from '../../src/cluster.js';
import { ConfigMapKind, NamespaceKind, SecretKind } from '../../src/kinds/index.js';
import type { KubeObject } from '../../src/schema/define-kind.js';
import { testCluster } from '../support/cluster.js';

const BUFFER = 4;
const RETENTION_MS = 1000;
const NAMESPACES = ['ns-a', 'ns-b'] as const;
const NAMES = ['x', 'y', 'z'] as const;
const KINDS = [ConfigMapKind, SecretKind] as const;
const SELECTORS = [undefined, 'team=a', 'team!=a', '!team'] as const;

/** Whether labels `team` (undefined: no such label) match selector `s`. */
function matches(s: (typeof SELECTORS)[number], team: string | undefined): boolean {
  if (s === 'team=a') return team === 'a';
  if (s === 'team!=a') return team !== 'a';
  if (s === '!team') return team === undefined;
  return true;
}

interface WriteCommand {
  readonly op: 'write';
  readonly kind: number;
  readonly ns: number;
  readonly name: number;
  readonly team: 'a' | 'b' | undefined;
  /** Delete the object when it exists (else it is updated; an absent object is created). */
  readonly remove: boolean;
}
interface TickCommand {
  readonly op: 'tick';
  readonly ms: number;
}
type Command = WriteCommand | TickCommand;

type Resume = { readonly at: 'one' | 'start' | 'head' } | { readonly at: 'write'; readonly index: number };

interface WatchSpec {
  readonly kind: number;
  readonly ns: number | undefined;
  readonly name: number | undefined;
  readonly selector: number;
  readonly resume: Resume;
}

/** One committed change of the model. */
interface Change {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly kind: number;
  readonly ns: string;
  readonly name: string;
  readonly rv: number;
  readonly time: number;
  /** The `team` label before (MODIFIED, DELETED) and after (ADDED, MODIFIED). */
  readonly before?: { team: string | undefined };
  readonly after?: { team: string | undefined };
}

/** What a watch event is compared by. */
interface Seen {
  readonly type: string;
  readonly ns?: string;
  readonly name?: string;
  readonly rv?: string;
  readonly team?: string;
  readonly code?: number;
  readonly message?: string;
}

const write: fc.Arbitrary<WriteCommand> = fc.record({
  op: fc.constant('write' as const),
  kind: fc.integer({ min: 0, max: KINDS.length - 1 }),
  ns: fc.integer({ min: 0, max: NAMESPACES.length - 1 }),
  name: fc.integer({ min: 0, max: NAMES.length - 1 }),
  team: fc.constantFrom('a' as const, 'b' as const, undefined),
  remove: fc.boolean(),
});
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 12, arbitrary: write },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 250 }) }) },
);
/** `undefined` (no such filter) three times in four. */
const mostlyNone = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: a });
const resume: fc.Arbitrary<Resume> = fc.oneof(fc.record({ at: fc.constantFrom('one' as const, 'start' as const, 'head' as const) }), {
  weight: 3,
  arbitrary: fc.record({ at: fc.constant('write' as const), index: fc.nat() }),
});
const watchSpec: fc.Arbitrary<WatchSpec> = fc.record({
  kind: fc.integer({ min: 0, max: KINDS.length - 1 }),
  ns: fc.option(fc.integer({ min: 0, max: NAMESPACES.length - 1 }), { nil: undefined }),
  name: mostlyNone(fc.integer({ min: 0, max: NAMES.length - 1 })),
  selector: fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: SELECTORS.length - 1 }) }),
  resume,
});

/** The test's cluster and the model of everything written to it since setup. */
class Run {
  readonly changes: Change[] = [];
  private readonly state = new Map<string, { team: string | undefined }>();
  private step = 0;

  constructor(
    readonly cluster: Cluster,
    /** The revision after setup: nothing of the watched kinds exists yet. */
    readonly setup: number,
    /** When the setup writes happened (the cluster clock stood still). */
    readonly setupTime: number,
  ) {}

  get head(): number {
    return this.changes.at(-1)?.rv ?? this.setup;
  }

  /** The newest revision no longer in the history (0 when nothing left it): what the storage calls compacted. */
  compacted(): number {
    const horizon = this.cluster.clock.now() - RETENTION_MS;
    let compacted = this.setupTime <= horizon ? this.setup : 0;
    for (const c of this.changes) if (c.time <= horizon) compacted = c.rv;
    return compacted;
  }

  async apply(cmd: Command): Promise<void> {
    if (cmd.op === 'tick') {
      this.cluster.clock.advance(cmd.ms);
      return;
    }
    const ns = NAMESPACES[cmd.ns]!;
    const name = NAMES[cmd.name]!;
    const key = `${cmd.kind}/${ns}/${name}`;
    const client = this.cluster.client.resource(KINDS[cmd.kind]!);
    const before = this.state.get(key);
    const rv = this.head + 1;
    const annotations = { step: String(++this.step) };
    let written: KubeObject | undefined;
    const base = { kind: cmd.kind, ns, name, rv, time: this.cluster.clock.now() };
    if (!before) {
      written = await client.create({ metadata: { name, namespace: ns, annotations, ...(cmd.team ? { labels: { team: cmd.team } } : {}) } });
      this.changes.push({ ...base, type: 'ADDED', after: { team: cmd.team } });
      this.state.set(key, { team: cmd.team });
    } else if (cmd.remove) {
      await client.delete(name, { namespace: ns });
      this.changes.push({ ...base, type: 'DELETED', before });
      this.state.delete(key);
    } else {
      // The annotation changes on every update, so every update is a write with its own revision.
      written = await client.patch(name, { metadata: { annotations, labels: { team: cmd.team ?? null } } }, { namespace: ns, type: 'merge' });
      this.changes.push({ ...base, type: 'MODIFIED', before, after: { team: cmd.team } });
      this.state.set(key, { team: cmd.team });
    }
    if (written) expect(written.metadata?.resourceVersion).toBe(String(rv));
  }

  /** The revision a watch resumes from. */
  resumeAt(r: Resume): number {
    if (r.at === 'write') return this.changes.length ? this.changes[r.index % this.changes.length]!.rv : this.setup;
    if (r.at === 'one') return 1;
    return r.at === 'start' ? this.setup : this.head;
  }

  /** The events a watch from `from` sees of the changes after it. */
  expected(spec: WatchSpec, from: number): Seen[] {
    const selector = SELECTORS[spec.selector];
    const out: Seen[] = [];
    for (const c of this.changes) {
      if (c.rv <= from || c.kind !== spec.kind) continue;
      if (spec.ns !== undefined && c.ns !== NAMESPACES[spec.ns]) continue;
      if (spec.name !== undefined && c.name !== NAMES[spec.name]) continue;
      const now = c.after !== undefined && matches(selector, c.after.team);
      const was = c.before !== undefined && matches(selector, c.before.team);
      let type: string | undefined;
      if (c.type === 'ADDED') type = now ? 'ADDED' : undefined;
      else if (c.type === 'DELETED') type = was ? 'DELETED' : undefined;
      else type = now && was ? 'MODIFIED' : now ? 'ADDED' : was ? 'DELETED' : undefined;
      // A deletion carries the last state; any other event the state the change left.
      if (type) out.push({ type, ns: c.ns, name: c.name, rv: String(c.rv), team: (c.type === 'DELETED' ? c.before : c.after)!.team });
    }
    return out;
  }
}

function seen(e: WatchEvent<unknown>): Seen {
  const o = e.object as KubeObject & { code?: number; message?: string };
  if (e.type === 'ERROR') return { type: e.type, code: o.code, message: o.message };
  const m = o.metadata!;
  return { type: e.type, ns: m.namespace, name: m.name, rv: m.resourceVersion, team: m.labels?.team };
}

/** Reads what a stream holds now, without blocking; `ended` tells whether it finished. */
async function readBuffered(stream: WatchStream<unknown>): Promise<{ events: Seen[]; ended: boolean }> {
  const it = stream[Symbol.asyncIterator]();
  const events: Seen[] = [];
  for (;;) {
    const next = await Promise.race([it.next(), new Promise<'idle'>((r) => setImmediate(() => r('idle')))]);
    if (next === 'idle') return { events, ended: false };
    if (next.done) return { events, ended: true };
    events.push(seen(next.value));
  }
}

async function check(commands: Command[], pastRetention: boolean, specs: WatchSpec[], live: WriteCommand[]): Promise<void> {
  const cluster = await testCluster({ watchBufferSize: BUFFER, historyRetentionMs: RETENTION_MS });
  try {
    for (const ns of NAMESPACES) await cluster.client.resource(NamespaceKind).create({ metadata: { name: ns } });
    await cluster.settle();
    const setup = Number((await cluster.client.resource(NamespaceKind).list()).metadata.resourceVersion);
    for (const kind of KINDS) expect((await cluster.client.resource(kind).list()).items).toEqual([]);
    const run = new Run(cluster, setup, cluster.clock.now());
    for (const c of commands) await run.apply(c);
    if (pastRetention) cluster.clock.advance(RETENTION_MS + 1);

    const compacted = run.compacted();
    const watches = [];
    for (const spec of specs) {
      const from = run.resumeAt(spec.resume);
      const stream = await cluster.client.resource(KINDS[spec.kind]!).watch({
        resourceVersion: String(from),
        ...(spec.ns !== undefined ? { namespace: NAMESPACES[spec.ns] } : {}),
        ...(spec.name !== undefined ? { fieldSelector: `metadata.name=${NAMES[spec.name]}` } : {}),
        ...(SELECTORS[spec.selector] ? { labelSelector: SELECTORS[spec.selector] } : {}),
      });
      watches.push({ spec, from, stream, expired: from < compacted });
    }
    // Live changes behind the unread replays: fewer than the buffer, so no watch falls behind.
    for (const w of live) await run.apply(w);

    for (const { spec, from, stream, expired } of watches) {
      const got = await readBuffered(stream);
      if (expired) {
        expect(got).toEqual({ events: [{ type: 'ERROR', code: 410, message: `too old resource version: ${from} (${compacted})` }], ended: true });
      } else {
        // The replay, then the live changes, each once, in revision order.
        expect(got).toEqual({ events: run.expected(spec, from), ended: false });
      }
    }
    expect(cluster.activeWatchers).toBe(watches.filter((w) => !w.expired).length);
    for (const { stream } of watches) stream.close();
    expect(cluster.activeWatchers).toBe(0);
  } finally {
    await cluster.close();
  }
}

describe('watch from a resourceVersion (property)', () => {
  it('replays exactly the changes after it that the watch sees, in order, or ends with ERROR 410 once it left the history', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(command, { minLength: 0, maxLength: 80, size: 'max' }),
        fc.boolean(),
        fc.array(watchSpec, { minLength: 1, maxLength: 6 }),
        fc.array(write, { maxLength: BUFFER - 1 }),
        check,
      ),
      { numRuns: 100 },
    );
  }, 60_000);

  it('replays histories far longer than the watch buffer', async () => {
    // Deterministic and long: 60 writes, then watches of every shape from before the first one.
    const commands: Command[] = [];
    for (let i = 0; i < 60; i++)
      commands.push({
        op: 'write',
        kind: i % 2,
        ns: (i >> 1) % 2,
        name: (i >> 2) % 3,
        team: i % 3 === 0 ? 'a' : i % 3 === 1 ? 'b' : undefined,
        remove: i % 7 === 6,
      });
    const specs: WatchSpec[] = [];
    for (let kind = 0; kind < KINDS.length; kind++)
      for (const ns of [undefined, 0, 1])
        for (const name of [undefined, 1])
          for (let selector = 0; selector < SELECTORS.length; selector++) specs.push({ kind, ns, name, selector, resume: { at: 'start' } });
    await check(commands, false, specs, [{ op: 'write', kind: 0, ns: 0, name: 0, team: 'a', remove: false }]);
  });
});
