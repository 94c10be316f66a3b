/**
 * A bound on how deeply YAML text can nest, checked in one pass before the text reaches the YAML
 * parser: the parser recurses once per level, and a few hundred levels can exhaust the stack in a
 * way V8 may report as running out of memory (aborting the process) rather than as an error. Text
 * from an untrusted peer (a webhook's answer) is measured first and refused when it could nest
 * deeper than the bound.
 *
 * The measure over-approximates: flow brackets outside quotes, plus, on each line, its indentation
 * and its leading `- `, `? ` and `: ` indicators (compact block nesting).
 */

/** Whether `text` might nest deeper than `max` levels (see the module comment). */
export function yamlMayNestDeeperThan(text: string, max: number): boolean {
  let flow = 0;
  let quote: '"' | "'" | undefined;
  let lineStart = true;
  let indent = 0;
  let indicators = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') {
      // A quoted scalar may span lines; its continuation lines are not indentation.
      if (!quote) {
        lineStart = true;
        indent = 0;
        indicators = 0;
      }
      continue;
    }
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (lineStart) {
      if (c === ' ') {
        indent++;
        if (indent > max) return true;
        continue;
      }
      if ((c === '-' || c === '?' || c === ':') && (text[i + 1] === ' ' || text[i + 1] === '\t')) {
        indicators++;
        if (indent + indicators > max) return true;
        i++;
        continue;
      }
      lineStart = false;
    }
    if (c === '#' && (i === 0 || text[i - 1] === ' ' || text[i - 1] === '\t')) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl - 1;
    } else if ((c === '"' || c === "'") && (i === 0 || ' \t[{,:'.includes(text[i - 1]!))) quote = c;
    else if (c === '[' || c === '{') {
      flow++;
      if (flow + indent + indicators > max) return true;
    } else if (c === ']' || c === '}') flow = Math.max(0, flow - 1);
  }
  return false;
}
