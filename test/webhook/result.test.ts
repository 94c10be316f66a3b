/** client-go's reading of a webhook's answer before decoding: media types, status codes, empty bodies. */
import { describe, expect, it } from 'vitest';
import { genericServerResponseMessage, goMediaTypeError, responseError } from '../../src/webhook/result.js';

const answer = (status: number, contentType: string, body: string) => ({ status, contentType, body: Buffer.from(body) });

describe('goMediaTypeError', () => {
  it('accepts what Go parses and names what it refuses', () => {
    for (const ok of ['application/json', 'json', 'Application/JSON ; charset=utf-8', 'text/plain; a="x y"; b=c;', 'a/b;  q=1'])
      expect(goMediaTypeError(ok), ok).toBeUndefined();
    expect(goMediaTypeError('')).toBe('mime: no media type');
    expect(goMediaTypeError('; charset=x')).toBe('mime: no media type');
    expect(goMediaTypeError('application json')).toBe('mime: expected slash after first token');
    expect(goMediaTypeError('application/')).toBe('mime: expected token after slash');
    expect(goMediaTypeError('a/b/c')).toBe('mime: unexpected content after media subtype');
    expect(goMediaTypeError('a/b; charset')).toBe('mime: invalid media parameter');
    expect(goMediaTypeError('a/b; x="unterminated')).toBe('mime: invalid media parameter');
    expect(goMediaTypeError('a/b; x=1; X=2')).toBe('mime: duplicate parameter name');
  });
});

describe('genericServerResponseMessage', () => {
  it('words each status code as errors.NewGenericServerResponse does', () => {
    expect(genericServerResponseMessage(500, 'boom')).toBe('an error on the server ("boom") has prevented the request from succeeding');
    expect(genericServerResponseMessage(502, 'a "quoted"\nline')).toBe(
      'an error on the server ("a \\"quoted\\"\\nline") has prevented the request from succeeding',
    );
    expect(genericServerResponseMessage(403, 'no way')).toBe('no way');
    expect(genericServerResponseMessage(406, 'unknown')).toBe('the server was unable to respond with a content type that the client supports');
    expect(genericServerResponseMessage(503, 'x')).toBe('the server is currently unable to handle the request');
    expect(genericServerResponseMessage(302, 'x')).toBe('the server responded with the status code 302 but did not return more information');
    expect(genericServerResponseMessage(418, 'x')).toBe('the server responded with the status code 418 but did not return more information');
  });
});

describe('responseError', () => {
  it('lets a 2xx answer with a body through', () => {
    expect(responseError(answer(200, 'application/json', '{}'))).toBeUndefined();
    expect(responseError(answer(206, '', 'x'))).toBeUndefined();
  });

  it('refuses an empty body, naming the status and the type (application/json when none was sent)', () => {
    expect(responseError(answer(200, '', ''))).toBe('0-length response with status code: 200 and content type: application/json');
    expect(responseError(answer(204, 'text/plain', ''))).toBe('0-length response with status code: 204 and content type: text/plain');
  });

  it('refuses a Content-Type Go cannot parse, whatever the status', () => {
    expect(responseError(answer(200, 'application/', '{}'))).toBe('Internal error occurred: mime: expected token after slash');
    expect(responseError(answer(500, 'a b', 'x'))).toBe('Internal error occurred: mime: expected slash after first token');
  });

  it('quotes a text answer of another status (2048 bytes at most, trimmed), but not a JSON one', () => {
    expect(responseError(answer(500, 'text/html', '  <b>down</b>\n'))).toBe('an error on the server ("<b>down</b>") has prevented the request from succeeding');
    expect(responseError(answer(500, '', 'plain'))).toBe('an error on the server ("plain") has prevented the request from succeeding');
    expect(responseError(answer(500, 'application/json', '{"error":"x"}'))).toBe(
      'an error on the server ("unknown") has prevented the request from succeeding',
    );
    const long = responseError(answer(500, 'text/plain', 'x'.repeat(5000)))!;
    expect(long).toBe(`an error on the server ("${'x'.repeat(2048)}") has prevented the request from succeeding`);
  });

  it('prefers the message of a failed Status in the body, JSON or YAML', () => {
    expect(responseError(answer(500, 'application/json', '{"kind":"Status","apiVersion":"v1","status":"Failure","message":"broke"}'))).toBe('broke');
    expect(responseError(answer(400, 'application/yaml', 'kind: Status\nstatus: Failure\nmessage: from yaml\n'))).toBe('from yaml');
    expect(responseError(answer(400, 'application/json', '{"kind":"Status","status":"Failure"}'))).toBe('');
    expect(responseError(answer(400, 'application/json', '{"kind":"Status","status":"Success","message":"m"}'))).toBe(
      'the server rejected our request for an unknown reason',
    );
  });

  it('never throws on hostile bodies', () => {
    const deep = '['.repeat(200_000);
    expect(responseError(answer(500, 'text/plain', deep))).toMatch(/^an error on the server/);
    expect(responseError(answer(500, 'application/json', '{'.repeat(100_000)))).toBe(
      'an error on the server ("unknown") has prevented the request from succeeding',
    );
  });
});
