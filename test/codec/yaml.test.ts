import { describe, expect, it } from 'vitest';
import { parseYamlDocuments, YamlSyntaxError } from '../../src/codec/yaml.js';

describe('parseYamlDocuments', () => {
  it('parses every document, skipping empty ones', () => {
    const docs = parseYamlDocuments('a: 1\n---\n---\nb: [1, 2]\n');
    expect(docs.map((d) => d.value)).toEqual([{ a: 1 }, { b: [1, 2] }]);
  });

  it('reports duplicate keys as field paths instead of failing', () => {
    const [doc] = parseYamlDocuments('metadata:\n  name: a\n  name: b\nspec:\n  containers:\n  - name: c\n    name: d\n');
    expect(doc!.duplicateFields.sort()).toEqual(['metadata.name', 'spec.containers[0].name']);
    expect((doc!.value as { metadata: { name: string } }).metadata.name).toBe('b');
  });

  it('throws YamlSyntaxError for broken YAML and refuses alias bombs', () => {
    expect(() => parseYamlDocuments('a: [b')).toThrow(YamlSyntaxError);
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`,
      ),
    ].join('\n');
    expect(() => parseYamlDocuments(bomb)).toThrow(YamlSyntaxError);
  });
});
