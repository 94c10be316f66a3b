import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { negotiateEncoding, negotiateFormat, parseAccept } from '../../src/metrics/negotiate.js';

const PROTO = 'application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited; escaping=underscores';
const OM1 = 'application/openmetrics-text; version=1.0.0; charset=utf-8; escaping=underscores';
const OM0 = 'application/openmetrics-text; version=0.0.1; charset=utf-8; escaping=underscores';
const TEXT = 'text/plain; version=0.0.4; charset=utf-8; escaping=underscores';

describe('format negotiation', () => {
  const table: Array<[string, string | undefined, string]> = [
    // Prometheus 2.42+ with native histograms on: protobuf first.
    [
      'Prometheus protobuf-first scrape',
      'application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.7,text/plain;version=0.0.4;q=0.3,*/*;q=0.1',
      PROTO,
    ],
    // Prometheus' default scrape protocols: OpenMetrics first.
    [
      'Prometheus OpenMetrics-first scrape',
      'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1',
      OM1,
    ],
    [
      'Prometheus 3 default',
      'application/openmetrics-text;version=1.0.0;escaping=allow-utf-8,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=1.0.0;escaping=allow-utf-8;q=0.5,*/*;q=0.1',
      OM1.replace('underscores', 'allow-utf-8'),
    ],
    ['OpenMetrics 0.0.1', 'application/openmetrics-text; version=0.0.1', OM0],
    ['OpenMetrics without a version', 'application/openmetrics-text', OM0],
    ['OpenMetrics of an unknown version', 'application/openmetrics-text; version=9.9.9', TEXT],
    ['curl', '*/*', TEXT],
    ['no Accept header', undefined, TEXT],
    ['empty Accept header', '', TEXT],
    ['text/plain', 'text/plain', TEXT],
    ['text/plain of another version', 'text/plain;version=1.0.0', TEXT],
    ['text with an escaping scheme', 'text/plain;version=0.0.4;escaping=values', TEXT.replace('underscores', 'values')],
    ['an unknown escaping scheme is ignored', 'text/plain;escaping=rot13', TEXT],
    ['protobuf without proto=', 'application/vnd.google.protobuf;encoding=delimited', TEXT],
    [
      'protobuf text encoding is not offered',
      'application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=text,application/openmetrics-text;q=0.5',
      OM0,
    ],
    ['a higher q wins over order', 'text/plain;q=0.2,application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited', PROTO],
    ['json', 'application/json', TEXT],
    ['garbage', '\u0000;;;,,=/=/,q=q', TEXT],
    ['a media range without a slash', 'openmetrics', TEXT],
    ['q that is not a number', 'application/openmetrics-text;version=1.0.0;q=abc,text/plain;q=0.1', TEXT],
  ];
  for (const [what, accept, contentType] of table) {
    it(`${what}: ${contentType.split(';')[0]}`, () => {
      expect(negotiateFormat(accept).contentType).toBe(contentType);
    });
  }

  it('never throws and always names one of the four formats, whatever the header', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 300 }),
          fc
            .array(fc.constantFrom('text/plain', '*/*', ';q=', '0.5', ',', ';', 'application/openmetrics-text', 'version=1.0.0', '=', ' ', 'escaping=dots'))
            .map((a) => a.join('')),
        ),
        (accept) => {
          const { format, contentType } = negotiateFormat(accept);
          expect(['protobuf', 'openmetrics-1.0.0', 'openmetrics-0.0.1', 'text']).toContain(format);
          expect(contentType).toMatch(/; escaping=(allow-utf-8|underscores|dots|values)$/);
        },
      ),
    );
  });

  it('reads only the start of a huge header, and quickly', () => {
    const huge = `${'a/b;q=0.1,'.repeat(100_000)}text/plain`;
    const start = Date.now();
    expect(negotiateFormat(huge).format).toBe('text');
    expect(Date.now() - start).toBeLessThan(1000);
  });
});

describe('Accept parsing as goautoneg', () => {
  it('orders by q, then concrete types before wildcards, keeping parameters', () => {
    const clauses = parseAccept('*/*;q=0.1, text/plain;version=0.0.4;q=0.3, application/x;q=0.7, text/*');
    expect(clauses.map((c) => `${c.type}/${c.subType};${c.q.toFixed(1)}`)).toEqual(['text/*;1.0', 'application/x;0.7', 'text/plain;0.3', '*/*;0.1']);
    expect(clauses[2]!.params).toEqual({ version: '0.0.4' });
  });

  it('reads a bare * as */*, and q as a 32-bit float', () => {
    expect(parseAccept('*')[0]).toMatchObject({ type: '*', subType: '*' });
    expect(parseAccept('a/b;q=0.3')[0]!.q).toBe(Math.fround(0.3));
  });
});

describe('encoding negotiation as promhttp', () => {
  const table: Array<[string | undefined, 'gzip' | 'identity']> = [
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'gzip'],
    ['br;q=1.0, gzip;q=0.8, *;q=0.1', 'gzip'],
    [undefined, 'identity'],
    ['', 'identity'],
    ['deflate', 'identity'],
    ['identity;q=0.5, gzip;q=0.9', 'gzip'],
    ['identity, gzip', 'identity'], // equal q: the first offer (identity) keeps it
    ['*', 'identity'],
    ['gzip;q=0', 'identity'],
    ['gzip;q=x', 'identity'],
    ['\u00ff\u0000', 'identity'],
  ];
  for (const [header, expected] of table) {
    it(`${JSON.stringify(header)} -> ${expected}`, () => {
      expect(negotiateEncoding(header)).toBe(expected);
    });
  }
});
