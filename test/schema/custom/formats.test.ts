import { describe, expect, it } from 'vitest';
import { effectiveFormat, formatCheck } from '../../../src/schema/custom/formats.js';
import { specErrors } from './helpers.js';

const check = (format: string) => formatCheck(format)!;

describe('the formats Kubernetes checks', () => {
  it.each([
    ['uri', 'https://example.com/a?b#c', 'example.com/a'],
    ['uri', '/absolute/path', 'relative/path'],
    ['email', 'Name <user@example.com>', 'user@'],
    ['hostname', 'my-host.example.com', '-bad-.com'],
    ['hostname', 'a', 'a'.repeat(64)],
    ['ipv4', '192.168.0.1', '::1'],
    ['ipv4', '010.0.0.1', '1.2.3.256'],
    ['ipv6', '2001:db8::1', '192.168.0.1'],
    ['cidr', '10.0.0.0/8', '10.0.0.0/33'],
    ['mac', '00:00:5e:00:53:01', '00:00:5e:00:53'],
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', '123e4567-e89b-12d3-a456'],
    ['uuid', '123E4567E89B12D3A456426614174000', 'z23e4567-e89b-12d3-a456-426614174000'],
    ['uuid3', '123e4567-e89b-32d3-a456-426614174000', '123e4567-e89b-42d3-a456-426614174000'],
    ['uuid4', '123e4567-e89b-42d3-a456-426614174000', '123e4567-e89b-42d3-c456-426614174000'],
    ['uuid5', '123e4567-e89b-52d3-a456-426614174000', '123e4567-e89b-42d3-a456-426614174000'],
    ['isbn10', '0-321-75104-3', '0321751044'],
    ['isbn13', '978-0321751041', '9780321751042'],
    ['isbn', '0321751043', '123'],
    ['creditcard', '4111 1111 1111 1111', '4111 1111 1111 1112'],
    ['ssn', '123-45-6789', '123456789'],
    ['hexcolor', '#FFF', '#FFFF'],
    ['rgbcolor', 'rgb(255, 0, 10)', 'rgb(256,0,0)'],
    ['byte', 'aGVsbG8=', 'aGVsbG8'],
    ['byte', 'aGk=', ''],
    ['password', '', undefined],
    ['date', '2024-02-29', '2023-02-29'],
    ['date-time', '2024-01-01T10:00:00Z', '2024-01-01T24:00:00Z'],
    ['date-time', '2024-01-01t10:00:00.123+02:00', '2024-01-01 10:00:00Z'],
    ['datetime', '2024-01-01T10:00:00Z', '2024-01-01'],
    ['duration', '1h30m', '1x'],
    ['duration', '3 days', 'forever'],
    ['bsonobjectid', '507f1f77bcf86cd799439011', '507f1f77bcf86cd79943901'],
    ['k8s-short-name', 'my-name', 'My-Name'],
    ['k8s-long-name', 'my.name', 'my..name'],
  ])('%s accepts %j, refuses %j', (format, valid, invalid) => {
    expect(check(format)(valid)).toBe(true);
    if (invalid !== undefined) expect(check(format)(invalid)).toBe(false);
  });

  it('drops formats validation does not know, by type', () => {
    expect(effectiveFormat(['string'], 'int32')).toBe('');
    expect(effectiveFormat(['string'], 'date-time')).toBe('date-time');
    expect(effectiveFormat([], 'ipv4')).toBe('ipv4');
    expect(effectiveFormat(['integer'], 'int32')).toBe('int32');
    expect(effectiveFormat(['integer'], 'uuid')).toBe('');
    expect(effectiveFormat(['number'], 'float')).toBe('float');
    expect(effectiveFormat(['number'], 'int64')).toBe('');
    expect(effectiveFormat(['boolean'], 'uuid')).toBe('');
    expect(effectiveFormat(['integer', 'string'], 'int32')).toBe('');
  });

  it('checks a format in an untyped clause, naming it as the expected type', () => {
    const spec = { type: 'object', properties: { ip: { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] } } } as const;
    expect(specErrors(spec, { ip: '10.0.0.1' })).toEqual([]);
    expect(specErrors(spec, { ip: '::1' })).toEqual([]);
    expect(specErrors(spec, { ip: 'x' })).toEqual([
      '<nil>: Invalid value: "": "spec.ip" must validate at least one schema (anyOf)',
      'spec.ip: Invalid value: "x": spec.ip in body must be of type ipv4: "x"',
    ]);
  });
});
