/**
 * Compile errors and their display text, as cel-go's common.Errors.ToDisplayString prints them:
 * `ERROR: <input>:1:6: message`, then the source line and a dotted pointer to the column. Lines and
 * columns count Unicode code points; a character wider than one UTF-8 byte is shown as a wide dot.
 */

/** One error: where (a UTF-16 offset into the source, or undefined for "no location") and what. */
export interface Issue {
  readonly offset: number | undefined;
  readonly message: string;
}

/** cel-go stops recording after this many errors and says how many it left out. */
const MAX_ERRORS_TO_REPORT = 100;
const MAX_SNIPPET_LENGTH = 16384;

interface Location {
  readonly line: number;
  /** 0-based code point column; -1 for no location. */
  readonly column: number;
}

function locate(source: string, offset: number | undefined): Location {
  if (offset === undefined) return { line: -1, column: -1 };
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < source.length; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  let column = 0;
  for (let i = lineStart; i < offset && i < source.length; i++) {
    const c = source.charCodeAt(i);
    // A surrogate pair is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < offset) i++;
    column++;
  }
  return { line, column };
}

function lineText(source: string, line: number): string | undefined {
  if (line < 1) return undefined;
  const lines = source.split('\n');
  return lines[line - 1];
}

function display(source: string, description: string, issue: Issue): string {
  const loc = locate(source, issue.offset);
  let result = `ERROR: ${description}:${loc.line}:${loc.column + 1}: ${issue.message}`;
  const snippet = lineText(source, loc.line);
  if (snippet !== undefined && Buffer.byteLength(snippet, 'utf8') <= MAX_SNIPPET_LENGTH) {
    const shown = snippet.replaceAll('\t', ' ');
    let indicator = '';
    const chars = Array.from(shown);
    for (let i = 0; i < loc.column && i < chars.length; i++) indicator += chars[i]!.codePointAt(0)! > 0x7f ? '\uff0e' : '.';
    const at = chars[loc.column];
    indicator += at !== undefined && at.codePointAt(0)! > 0x7f ? '\uff3e' : '^';
    result += `\n | ${shown}\n | ${indicator}`;
  }
  return result;
}

/**
 * The display text of a list of errors, sorted by position as cel-go sorts them (a stable sort by
 * line, then column), at most 100 of them.
 */
export function formatIssues(source: string, issues: readonly Issue[], description = '<input>'): string {
  const located = issues.map((issue, index) => ({ issue, index, loc: locate(source, issue.offset) }));
  located.sort((a, b) => a.loc.line - b.loc.line || a.loc.column - b.loc.column || a.index - b.index);
  const lines = located.slice(0, MAX_ERRORS_TO_REPORT).map((l) => display(source, description, l.issue));
  if (issues.length > MAX_ERRORS_TO_REPORT) lines.push(`${issues.length - MAX_ERRORS_TO_REPORT} more errors were truncated`);
  return lines.join('\n');
}
