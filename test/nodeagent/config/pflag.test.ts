import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FlagParseError, MAX_ARGS, invalidArgumentText, normalizeFlagName, parseFlags, type FlagDefinition } from '../../../src/nodeagent/config/pflag.js';

const defs = new Map<string, FlagDefinition>([
  ['port', { name: 'port' }],
  ['read-only-port', { name: 'read-only-port' }],
  ['enable-server', { name: 'enable-server', noValue: 'true' }],
  ['v', { name: 'v', shorthand: 'v' }],
  ['help', { name: 'help', shorthand: 'h', noValue: 'true' }],
]);
const parse = (argv: string[]) => {
  const seen: [string, string][] = [];
  const r = parseFlags(argv, defs, (f, v) => seen.push([f.name, v]));
  return { seen, args: r.args };
};

describe('parseFlags', () => {
  it('reads --flag=value and --flag value', () => {
    expect(parse(['--port=1', '--read-only-port', '2']).seen).toEqual([
      ['port', '1'],
      ['read-only-port', '2'],
    ]);
    expect(parse(['--port=']).seen).toEqual([['port', '']]);
    expect(parse(['--port=a=b']).seen).toEqual([['port', 'a=b']]);
  });

  it('reads a boolean flag bare or with =value; a separate word is an argument', () => {
    expect(parse(['--enable-server'])).toEqual({ seen: [['enable-server', 'true']], args: [] });
    expect(parse(['--enable-server=false']).seen).toEqual([['enable-server', 'false']]);
    expect(parse(['--enable-server', 'false'])).toEqual({ seen: [['enable-server', 'true']], args: ['false'] });
  });

  it('reads shorthands: -v 3, -v=3, -v3, -h', () => {
    expect(parse(['-v', '3']).seen).toEqual([['v', '3']]);
    expect(parse(['-v=3']).seen).toEqual([['v', '3']]);
    expect(parse(['-v3']).seen).toEqual([['v', '3']]);
    expect(parse(['-hv2']).seen).toEqual([
      ['help', 'true'],
      ['v', '2'],
    ]);
  });

  it('reads _ as - in names', () => {
    expect(normalizeFlagName('read_only_port')).toBe('read-only-port');
    expect(parse(['--read_only_port=5']).seen).toEqual([['read-only-port', '5']]);
  });

  it('ends the flags at --, and collects arguments between flags', () => {
    expect(parse(['a', '--port=1', '-', '--', '--port=2', 'b'])).toEqual({ seen: [['port', '1']], args: ['a', '-', '--port=2', 'b'] });
  });

  it("fails with pflag's messages", () => {
    expect(() => parse(['--nope'])).toThrow(new FlagParseError('unknown flag: --nope'));
    expect(() => parse(['--nope=1'])).toThrow('unknown flag: --nope');
    expect(() => parse(['-x'])).toThrow("unknown shorthand flag: 'x' in -x");
    expect(() => parse(['-port'])).toThrow("unknown shorthand flag: 'p' in -port");
    expect(() => parse(['--port'])).toThrow('flag needs an argument: --port');
    expect(() => parse(['-v'])).toThrow("flag needs an argument: 'v' in -v");
    expect(() => parse(['---port'])).toThrow('bad flag syntax: ---port');
    expect(() => parse(['--=1'])).toThrow('bad flag syntax: --=1');
  });

  it('stops at the first value a flag refuses', () => {
    const seen: string[] = [];
    expect(() =>
      parseFlags(['--port=1', '--read-only-port=x', '--port=3'], defs, (f, v) => {
        if (v === 'x') throw new FlagParseError(invalidArgumentText(f, v, 'bad'));
        seen.push(v);
      }),
    ).toThrow('invalid argument "x" for "--read-only-port" flag: bad');
    expect(seen).toEqual(['1']);
    expect(invalidArgumentText(defs.get('v')!, '"q"', 'r')).toBe('invalid argument "\\"q\\"" for "-v, --v" flag: r');
  });

  it('bounds the number of arguments', () => {
    expect(() => parse(Array(MAX_ARGS + 1).fill('x'))).toThrow('too many arguments');
  });

  it('never throws anything but FlagParseError, and keeps every non-flag word, on any argv', () => {
    const word = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('--', '-', '--port', '--port=1', '-v', '-h', '--enable-server', '--_', '-=', '--=', '---', '-vv', '--help=false'),
      fc.string({ maxLength: 8 }).map((s) => `--${s}`),
      fc.string({ maxLength: 8 }).map((s) => `-${s}`),
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 20 }), (argv) => {
        try {
          const r = parseFlags(argv, defs);
          for (const a of r.args) expect(argv).toContain(a);
          for (const o of r.occurrences) expect(defs.get(o.flag.name)).toBe(o.flag);
        } catch (e) {
          expect(e).toBeInstanceOf(FlagParseError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same answer for --flag=value as for --flag value', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 10 }).filter((s) => !s.startsWith('-')),
        (value) => {
          expect(parse([`--port=${value}`]).seen).toEqual(parse(['--port', value]).seen);
        },
      ),
      { numRuns: 200 },
    );
  });
});
