/**
 * YAML text (one or more documents) to values, reporting duplicate mapping keys with the same
 * field paths the JSON decoder uses, instead of refusing them: Kubernetes lets `fieldValidation`
 * decide (Warn by default).
 */
import { isMap, isScalar, isSeq, parseAllDocuments, type Node } from 'yaml';
import { yamlMayNestDeeperThan } from './yaml-depth.js';

/** How deeply YAML text may nest (memkube's bound; see parseYamlDocuments). */
export const MAX_YAML_DEPTH = 500;

/**
 * One parsed YAML document.
 * @category Utilities
 */
export interface ParsedYamlDocument {
  value: unknown;
  duplicateFields: string[];
}

/**
 * Thrown for text that is not YAML.
 * @category Utilities
 */
export class YamlSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'YamlSyntaxError';
  }
}

function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

function findDuplicates(root: Node | null): string[] {
  const found: string[] = [];
  const stack: { node: unknown; path: string }[] = [{ node: root, path: '' }];
  while (stack.length) {
    const { node, path } = stack.pop()!;
    if (isMap(node)) {
      const keys = new Set<string>();
      for (const pair of node.items) {
        const k = keyText(pair.key);
        const p = path ? `${path}.${k}` : k;
        if (keys.has(k) && !found.includes(p)) found.push(p);
        keys.add(k);
        stack.push({ node: pair.value, path: p });
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => stack.push({ node: item, path: `${path}[${i}]` }));
    }
  }
  return found;
}

/**
 * Parses every document of a YAML text; empty documents are skipped.
 * @category Utilities
 */
export function parseYamlDocuments(text: string): ParsedYamlDocument[] {
  // The parser recurses once per level, and deep enough text can abort the whole process (V8
  // reports it as out of memory, not as an error): refuse it before parsing. Kubernetes' YAML
  // decoder stops at 10,000 levels; memkube stops earlier, far beyond any real manifest.
  if (yamlMayNestDeeperThan(text, MAX_YAML_DEPTH)) throw new YamlSyntaxError(`exceeded max depth of ${MAX_YAML_DEPTH}`);
  const out: ParsedYamlDocument[] = [];
  for (const doc of parseAllDocuments(text, { uniqueKeys: false })) {
    if (doc.errors.length) throw new YamlSyntaxError(doc.errors[0]!.message);
    let value: unknown;
    try {
      value = doc.toJSON();
    } catch (e) {
      // e.g. an alias bomb: "Excessive alias count indicates a resource exhaustion attack"
      throw new YamlSyntaxError((e as Error).message);
    }
    if (value === null || value === undefined) continue;
    out.push({ value, duplicateFields: findDuplicates(doc.contents) });
  }
  return out;
}
