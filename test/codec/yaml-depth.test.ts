/** The nesting bound checked before untrusted YAML reaches the parser. */
import { describe, expect, it } from 'vitest';
import { yamlMayNestDeeperThan } from '../../src/codec/yaml-depth.js';
import { MAX_YAML_DEPTH, parseYamlDocuments, YamlSyntaxError } from '../../src/codec/yaml.js';

describe('yamlMayNestDeeperThan', () => {
  it('counts flow brackets, leading indicators and indentation', () => {
    expect(yamlMayNestDeeperThan('['.repeat(64), 64)).toBe(false);
    expect(yamlMayNestDeeperThan('['.repeat(65), 64)).toBe(true);
    expect(yamlMayNestDeeperThan('{a: '.repeat(65), 64)).toBe(true);
    expect(yamlMayNestDeeperThan(`${'- '.repeat(65)}x`, 64)).toBe(true);
    expect(yamlMayNestDeeperThan(Array.from({ length: 70 }, (_, i) => `${' '.repeat(i)}a:`).join('\n'), 64)).toBe(true);
    expect(yamlMayNestDeeperThan('[]'.repeat(10_000), 64)).toBe(false);
  });

  it('does not count brackets in quoted scalars or comments, but does after an apostrophe inside a word', () => {
    expect(yamlMayNestDeeperThan(`a: "${'['.repeat(100)}"`, 64)).toBe(false);
    expect(yamlMayNestDeeperThan(`a: '${'['.repeat(100)}'`, 64)).toBe(false);
    expect(yamlMayNestDeeperThan(`a: 1 # ${'['.repeat(100)}`, 64)).toBe(false);
    expect(yamlMayNestDeeperThan(`[don't, ${'['.repeat(100)}`, 64)).toBe(true);
  });

  it('measures any text of a few megabytes in linear time', () => {
    const text = `a: "${'x\\"'.repeat(1_000_000)}"\n${'- '.repeat(10)}[1, [2]]`;
    const t = Date.now();
    expect(yamlMayNestDeeperThan(text, 64)).toBe(false);
    expect(Date.now() - t).toBeLessThan(2000);
  });

  it('lets every document the bound passes parse without exhausting the stack', () => {
    for (const text of ['['.repeat(64), `${'- '.repeat(64)}x`, '{a: '.repeat(64)]) {
      expect(yamlMayNestDeeperThan(text, 64)).toBe(false);
      try {
        parseYamlDocuments(text);
      } catch (e) {
        expect((e as Error).name).toBe('YamlSyntaxError');
      }
    }
  });
});

describe('parseYamlDocuments and deep text', () => {
  it('refuses text nesting deeper than its bound before the parser sees it (deep text could abort the process)', () => {
    expect(() => parseYamlDocuments('['.repeat(20_000))).toThrow(new YamlSyntaxError(`exceeded max depth of ${MAX_YAML_DEPTH}`));
    expect(() => parseYamlDocuments('a:\n' + '  - '.repeat(1000) + 'x\n')).toThrow(YamlSyntaxError);
    const ok = '['.repeat(100) + ']'.repeat(100);
    expect(parseYamlDocuments(ok)).toHaveLength(1);
  });
});
