/**
 * A server without tracing never loads OpenTelemetry: only src/tracing/provider.ts imports it, and
 * provider.ts is reached only through the dynamic `import()` of startRequestTracing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The module specifiers a file imports statically (type-only imports aside: they are erased). */
function staticImports(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'";]*?from\s+'([^']+)'/gm)) out.push(m[1]!);
  for (const m of text.matchAll(/^\s*import\s+'([^']+)'/gm)) out.push(m[1]!);
  return out;
}

describe('OpenTelemetry is loaded lazily', () => {
  const files = sources(join(root, 'src'));

  it('is imported by src/tracing/provider.ts alone', () => {
    const importers = files.filter((f) => staticImports(readFileSync(f, 'utf8')).some((s) => s.startsWith('@opentelemetry/') || s.startsWith('@grpc/')));
    expect(importers.map((f) => relative(root, f))).toEqual(['src/tracing/provider.ts']);
  });

  it('provider.ts is imported statically by no module, dynamically by src/tracing/index.ts', () => {
    const tracingProvider = join(root, 'src/tracing/provider.ts');
    const statically = files.filter((f) =>
      staticImports(readFileSync(f, 'utf8')).some((s) => s.startsWith('.') && join(dirname(f), s.replace(/\.js$/, '.ts')) === tracingProvider),
    );
    expect(statically.map((f) => relative(root, f))).toEqual([]);
    expect(readFileSync(join(root, 'src/tracing/index.ts'), 'utf8')).toContain("await import('./provider.js')");
  });
});
