/**
 * Every TypeScript sample in README.md and the Markdown files under docs/ is a complete module that a user could paste
 * into a project: it is type-checked under the project's strict compiler options (importing
 * `memkube` as a user would, mapped onto src/) and then run. A sample that is a vitest test
 * registers its tests here; any other sample runs as a test of its own and checks its outcome
 * itself (with `expect` or `node:assert`).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
/** Where the samples are written to run; vitest maps `memkube` onto src/ (vitest.config.ts). */
const OUT = join(ROOT, 'test/.samples');

interface Sample {
  /** `docs/engine.md:160` */
  readonly where: string;
  readonly file: string;
  readonly code: string;
  /** A vitest test file rather than a script. */
  readonly isTest: boolean;
}

function documents(): string[] {
  // Every Markdown file under docs/, in its folders too (docs/kinds/*.md), but the generated reference.
  const docs = (readdirSync(join(ROOT, 'docs'), { recursive: true }) as string[])
    .map((f) => f.split(sep).join('/'))
    .filter((f) => f.endsWith('.md') && !f.startsWith('api/'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

/** The ```ts and ```typescript blocks of one markdown file, with the line each starts on. */
export function extractSamples(markdown: string): { line: number; code: string }[] {
  const out: { line: number; code: string }[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    out.push({ line: start, code: lines.slice(start, end).join('\n') + '\n' });
    i = end;
  }
  return out;
}

function collect(): Sample[] {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const samples: Sample[] = [];
  for (const doc of documents()) {
    for (const { line, code } of extractSamples(readFileSync(join(ROOT, doc), 'utf8'))) {
      const isTest = /from 'vitest'/.test(code) && /\bit\(/.test(code);
      const name = `${basename(doc, '.md').toLowerCase()}-${line}${isTest ? '.test' : ''}.ts`;
      const file = join(OUT, name);
      writeFileSync(file, code);
      samples.push({ where: `${doc}:${line}`, file, code, isTest });
    }
  }
  return samples;
}

const samples = collect();

/** The project's compiler options, with `memkube` and its subpaths resolved to the sources. */
function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  return {
    ...parsed.options,
    noEmit: true,
    baseUrl: ROOT,
    paths: { memkube: ['src/index.ts'], 'memkube/adapters/*': ['src/http/adapters/*.ts'], 'memkube/vitest': ['src/testing/vitest.ts'] },
  };
}

describe('code samples in README.md and docs/', () => {
  it('there are samples, each a module that imports what it uses', () => {
    expect(samples.length).toBeGreaterThan(5);
    for (const s of samples) expect(s.code, s.where).toMatch(/^import /m);
  });

  it('every sample type-checks under the strict compiler options', () => {
    const program = ts.createProgram(
      samples.map((s) => s.file),
      compilerOptions(),
    );
    const problems = samples.flatMap((s) => {
      const source = program.getSourceFile(s.file);
      if (!source) return [`${s.where}: not compiled`];
      return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => {
        const { line } = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : { line: 0 };
        const [doc, first] = s.where.split(':');
        return `${doc}:${Number(first) + line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
    });
    expect(problems).toEqual([]);
  }, 120_000);
});

for (const s of samples.filter((x) => !x.isTest)) {
  it(`runs the sample at ${s.where} (${relative(ROOT, s.file)})`, async () => {
    await import(pathToFileURL(s.file).href);
  });
}

// A sample that is a vitest test registers its own tests here.
for (const s of samples.filter((x) => x.isTest)) {
  await import(pathToFileURL(s.file).href);
}
