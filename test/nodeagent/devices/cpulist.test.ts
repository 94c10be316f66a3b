import { describe, expect, it } from 'vitest';
import { smallestCPU } from '../../../src/nodeagent/devices/cpulist.js';

describe('smallestCPU', () => {
  it.each([
    ['', undefined],
    ['5', 5],
    ['8-11,0-3', 0],
    ['12,4-7', 4],
    ['0-4294967295', 0],
  ])('%j starts at %s', (list, cpu) => {
    expect(smallestCPU(list)).toBe(cpu);
  });

  it.each([
    ['3-1', 'invalid range "3-1" (3 > 1)'],
    ['a', 'strconv.Atoi: parsing "a": invalid syntax'],
    ['1,,2', 'strconv.Atoi: parsing "": invalid syntax'],
    ['1-2-3', 'strconv.Atoi: parsing "2-3": invalid syntax'],
  ])('refuses %j', (list, message) => {
    expect(() => smallestCPU(list)).toThrow(message);
  });
});
