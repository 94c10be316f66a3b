/** The PEM decoder behind the certificates kinds and APIService's caBundle: Go's `pem.Decode`. */
import { describe, expect, it } from 'vitest';
import { pemDecode } from '../../src/pki/x509.js';

const block = (type: string, body = 'AAEC', headers = '') => `-----BEGIN ${type}-----\n${headers}${body}\n-----END ${type}-----\n`;

describe('pemDecode', () => {
  it('finds the first block, skipping text before it, and answers the rest', () => {
    const [b, rest] = pemDecode(`preamble\n${block('CERTIFICATE')}after\n${block('KEY')}`);
    expect(b?.type).toBe('CERTIFICATE');
    expect([...(b?.bytes ?? [])]).toEqual([0, 1, 2]);
    expect(rest).toBe(`after\n${block('KEY')}`);
    expect(pemDecode(rest)[0]?.type).toBe('KEY');
  });

  it('keeps headers and answers undefined with the whole input when there is no block', () => {
    const [b] = pemDecode(block('RSA PRIVATE KEY', 'AAEC', 'Proc-Type: 4,ENCRYPTED\n\n'));
    expect(b?.headers).toEqual({ 'Proc-Type': '4,ENCRYPTED' });
    expect(pemDecode('no pem here\n-----END X-----\n')).toEqual([undefined, 'no pem here\n-----END X-----\n']);
  });

  it('skips a broken candidate (bad base64, unmatched END) and finds the next block', () => {
    const broken = '-----BEGIN A-----\n!!!\n-----END A-----\n-----BEGIN B-----\nAAEC\n-----END C-----\n';
    const [b, rest] = pemDecode(broken + block('CERTIFICATE'));
    expect(b?.type).toBe('CERTIFICATE');
    expect(rest).toBe('');
  });

  it('decodes thousands of blocks, and a body of BEGIN lines with one END, in one linear pass', () => {
    // Quadratic scanning would take minutes on these; a bound of seconds only catches that.
    const many = block('CERTIFICATE').repeat(20_000);
    const started = Date.now();
    let rest = many;
    let n = 0;
    for (;;) {
      const [b, next] = pemDecode(rest);
      if (!b) break;
      n++;
      rest = next;
    }
    const hostile = '-----BEGIN X-----\n'.repeat(150_000) + '-----END Y-----\n';
    expect(pemDecode(hostile)[0]).toBeUndefined();
    expect(n).toBe(20_000);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
