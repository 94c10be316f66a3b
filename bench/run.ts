/**
 * `npm run bench`: every benchmark figure, each measured beside its baseline in the same run, in
 * interleaved rounds (shared machines drift), printed as a table of median [min–max] with the
 * ratio ours / baseline and its target. See docs/performance.md.
 *
 *   npm run bench                       all figures, a table
 *   npm run bench -- --json             the same as JSON
 *   npm run bench -- --only http,growth suites or figure ids (startup, http, http-get, client, metrics, audit, ...)
 *   npm run bench -- --rounds 7         interleaved rounds (default 5)
 *   npm run bench -- --no-build         do not run `npm run build` when dist/ is stale
 *   npm run bench -- --quick            the fast suites (startup, http, client), short rounds, ratios only
 *   npm run bench -- --only scale --scale-pods 10000 --scale-rate 500   the scale suite, smaller or paced otherwise
 */
import { cpus } from 'node:os';
import type { FigureError, FigureResult, Suite } from './figure.js';
import { ensureBuild } from './processes.js';
import { formatNumber } from './stats.js';
import { figureTable, ratioTable } from './table.js';
import { startupSuite } from './suites/startup.js';
import { httpSuite } from './suites/http.js';
import { clientSuite } from './suites/client.js';
import { growthSuite } from './suites/growth.js';
import { memorySuite } from './suites/memory.js';
import { crdSuite } from './suites/crd.js';
import { authSuite } from './suites/auth.js';
import { auditSuite, metricsSuite } from './suites/metrics.js';
import { forkSuite } from './suites/fork.js';
import { SCALE_DEFAULTS, scaleSuite } from './suites/scale.js';
import { fanoutSuite } from './suites/fanout.js';

const SUITES: readonly Suite[] = [
  startupSuite,
  httpSuite,
  clientSuite,
  crdSuite,
  authSuite,
  metricsSuite,
  auditSuite,
  forkSuite,
  growthSuite,
  memorySuite,
  fanoutSuite,
  scaleSuite,
];

const USAGE = `usage: npm run bench -- [--json] [--only NAME,...] [--rounds N] [--no-build] [--quick] [--scale-pods N] [--scale-rate N]

  --json          print the results as JSON (progress still goes to stderr)
  --only NAMES    comma-separated suites or figure ids:
                  ${SUITES.map((s) => `${s.name} (${s.figures.map((f) => f.id).join(', ')})`).join('\n                  ')}
  --rounds N      interleaved rounds per figure, at least 5 (default 5; with --quick at least 3)
  --no-build      use dist/ as it is, even when older than src/
  --quick         a check in well under a minute: without --only, the suites ${SUITES.filter((s) => s.quick)
    .map((s) => s.name)
    .join(', ')};
                  shorter rounds; prints the ratios only
  --scale-pods N  pods the scale suite creates (default ${SCALE_DEFAULTS.pods}, on at most ${SCALE_DEFAULTS.nodes} nodes)
  --scale-rate N  pods per second it creates them at (default ${SCALE_DEFAULTS.rate})`;

interface Args {
  json: boolean;
  only?: string[];
  rounds: number;
  build: boolean;
  quick: boolean;
  scalePods?: number;
  scaleRate?: number;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { json: false, rounds: 0, build: true, quick: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    switch (flag) {
      case '--json':
        args.json = true;
        break;
      case '--only':
        args.only = (argv[++i] ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        break;
      case '--rounds':
        args.rounds = Number(argv[++i]);
        if (!Number.isInteger(args.rounds) || args.rounds < 3) throw new Error('--rounds needs a whole number of at least 5 (3 with --quick)');
        break;
      case '--quick':
        args.quick = true;
        break;
      case '--scale-pods':
      case '--scale-rate': {
        const n = Number(argv[++i]);
        if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} needs a whole number of at least 1`);
        if (flag === '--scale-pods') args.scalePods = n;
        else args.scaleRate = n;
        break;
      }
      case '--no-build':
        args.build = false;
        break;
      case '--help':
      case '-h':
        process.stdout.write(`${USAGE}\n`);
        return process.exit(0);
      default:
        throw new Error(`unknown flag ${JSON.stringify(flag)}\n\n${USAGE}`);
    }
  }
  if (args.rounds === 0) args.rounds = 5;
  if (args.rounds < (args.quick ? 3 : 5))
    throw new Error(`--rounds needs a whole number of at least ${args.quick ? 3 : 5}${args.quick ? '' : ' (3 with --quick)'}`);
  if (args.only) {
    const known = new Set(SUITES.flatMap((s) => [s.name, ...s.figures.map((f) => f.id)]));
    const unknown = args.only.filter((name) => !known.has(name));
    if (unknown.length) throw new Error(`--only: unknown ${unknown.join(', ')}\n\n${USAGE}`);
  }
  return args;
}

/** Which figure ids of `suite` the run wants (all, or those `--only` names). */
function wanted(suite: Suite, only: string[] | undefined, quick: boolean): Set<string> {
  if (!only && quick && !suite.quick) return new Set();
  if (!only || only.includes(suite.name)) return new Set(suite.figures.map((f) => f.id));
  return new Set(suite.figures.map((f) => f.id).filter((id) => only.includes(id)));
}

function machine() {
  return { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', node: process.version, platform: `${process.platform}/${process.arch}` };
}

async function main(): Promise<void> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
    return;
  }
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const started = performance.now();
  const figures: FigureResult[] = [];
  const errors: FigureError[] = [];
  let built: string | undefined;
  for (const suite of SUITES) {
    const ids = wanted(suite, args.only, args.quick);
    if (ids.size === 0) continue;
    log(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${suite.name}`);
    try {
      if (suite.needsBuild && args.build && built === undefined) {
        built = ensureBuild();
        if (built === 'built') log('  built dist/ (npm run build): it was older than src/');
      }
      const results = await suite.run(args.rounds, (line) => log(`  ${line}`), {
        quick: args.quick,
        ...(args.scalePods ? { scalePods: args.scalePods } : {}),
        ...(args.scaleRate ? { scaleRate: args.scaleRate } : {}),
      });
      figures.push(...results.filter((f) => ids.has(f.id)));
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      log(`  ${suite.name} failed: ${message}`);
      for (const f of suite.figures) if (ids.has(f.id)) errors.push({ id: f.id, title: f.title, error: message });
    }
  }
  const seconds = (performance.now() - started) / 1000;
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ date: new Date().toISOString(), machine: machine(), rounds: args.rounds, seconds, figures, errors }, null, 2)}\n`);
  } else if (args.quick) {
    const m = machine();
    process.stdout.write(
      `memkube benchmarks, quick, ${new Date().toISOString()}, ${m.cpus} × ${m.cpuModel}, Node ${m.node}; ${args.rounds} short rounds\n\n${ratioTable(figures, errors)}\n`,
    );
  } else {
    const m = machine();
    process.stdout.write(
      `memkube benchmarks, ${new Date().toISOString()}, ${m.cpus} × ${m.cpuModel}, Node ${m.node}; ` +
        `${args.rounds} interleaved rounds, median [min–max]; ratio = ours / baseline per round\n\n${figureTable(figures, errors)}\n\n`,
    );
    for (const f of figures) process.stdout.write(`${f.id}: baseline = ${f.baselineName}${f.note ? `; ${f.note}` : ''}\n`);
    process.stdout.write(`\n${formatNumber(seconds)} s in all\n`);
  }
  if (errors.length) process.exitCode = 1;
}

await main();
