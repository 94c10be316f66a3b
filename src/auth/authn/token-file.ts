/**
 * kube-apiserver's `--token-auth-file`: a CSV file of static bearer tokens, one per line,
 * `token,user,uid,"group1,group2"` (k8s.io/apiserver `pkg/authentication/token/tokenfile`).
 */
import type { AuthenticationResult, TokenAuthenticator } from '../../machinery/auth.js';
import type { UserInfo } from '../../machinery/request.js';

/**
 * A static token and its user.
 * @category Authentication and authorization
 */
export interface StaticToken {
  readonly token: string;
  readonly user: UserInfo;
}

/** Go's `csv.ParseError` text; the record's first line is named when the error is on a later one. */
function csvError(recordLine: number, line: number, column: number, what: string): Error {
  const at = `parse error on line ${line}, column ${column}: ${what}`;
  return new Error(recordLine === line ? at : `record on line ${recordLine}; ${at}`);
}

/**
 * Go's encoding/csv records as `tokenfile.NewCSV` reads them (fields separated by commas, `"`
 * quoting with `""` for a quote, records of any length, empty lines skipped, `\r\n` read as
 * `\n`). A stray quote fails with Go's error, whose columns count bytes from the start of the line
 * (1-based), as Go's reader counts them.
 */
function csvRecords(text: string): string[][] {
  // The lines Go's readLine gives: each with its '\n', "\r\n" ending as "\n"; a last line
  // without '\n' loses a trailing '\r'.
  const lines: string[] = [];
  for (let start = 0; start < text.length;) {
    const nl = text.indexOf('\n', start);
    let line = nl < 0 ? text.slice(start) : text.slice(start, nl + 1);
    start = nl < 0 ? text.length : nl + 1;
    if (nl < 0 && line.endsWith('\r')) line = line.slice(0, -1);
    else if (line.endsWith('\r\n')) line = `${line.slice(0, -2)}\n`;
    lines.push(line);
  }
  const bytes = (s: string) => Buffer.byteLength(s);
  const newlineLength = (s: string) => (s.endsWith('\n') ? 1 : 0);
  let lineNumber = 0;
  let next = 0;
  const readLine = (): string | undefined => {
    if (next >= lines.length) return undefined;
    lineNumber++;
    return lines[next++];
  };
  const records: string[][] = [];
  for (;;) {
    let line = readLine();
    while (line !== undefined && line.length === newlineLength(line)) line = readLine();
    if (line === undefined) return records;
    const recordLine = lineNumber;
    let fieldLine = lineNumber;
    let column = 1;
    const record: string[] = [];
    fields: for (;;) {
      if (!line.startsWith('"')) {
        const comma = line.indexOf(',');
        const field = comma >= 0 ? line.slice(0, comma) : line.slice(0, line.length - newlineLength(line));
        const quote = field.indexOf('"');
        if (quote >= 0) throw csvError(recordLine, lineNumber, column + bytes(field.slice(0, quote)), 'bare " in non-quoted-field');
        record.push(field);
        if (comma < 0) break;
        line = line.slice(comma + 1);
        column += bytes(field) + 1;
        continue;
      }
      line = line.slice(1);
      column += 1;
      let field = '';
      for (;;) {
        const quote = line.indexOf('"');
        if (quote >= 0) {
          field += line.slice(0, quote);
          column += bytes(line.slice(0, quote)) + 1;
          line = line.slice(quote + 1);
          if (line.startsWith('"')) {
            field += '"';
            line = line.slice(1);
            column += 1;
          } else if (line.startsWith(',')) {
            line = line.slice(1);
            column += 1;
            record.push(field);
            continue fields;
          } else if (line.length === newlineLength(line)) {
            record.push(field);
            break fields;
          } else {
            // The column of the closing quote that something other than a comma follows.
            throw csvError(recordLine, lineNumber, column - 1, 'extraneous or missing " in quoted-field');
          }
        } else if (line.length > 0) {
          // The field goes on on the next line.
          field += line;
          column += bytes(line);
          line = readLine() ?? '';
          if (line.length > 0) {
            fieldLine++;
            column = 1;
          }
        } else {
          throw csvError(recordLine, fieldLine, column, 'extraneous or missing " in quoted-field');
        }
      }
    }
    records.push(record);
  }
}

/**
 * The tokens of a token file's text (`tokenfile.NewCSV`): at least three columns per record, else
 * kube-apiserver's error; records with an empty token are skipped; a later duplicate wins.
 *
 * @param path the file's name, for messages
 * @category Authentication and authorization
 */
export function parseTokenFile(text: string, path: string): StaticToken[] {
  const tokens = new Map<string, UserInfo>();
  for (const record of csvRecords(text)) {
    if (record.length < 3) throw new Error(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    if (record[0] === '') continue;
    const user: UserInfo = { username: record[1]!, uid: record[2]!, groups: record.length >= 4 ? record[3]!.split(',') : [] };
    tokens.set(record[0]!, user);
  }
  return [...tokens].map(([token, user]) => ({ token, user }));
}

/**
 * A token authenticator over static tokens.
 * @category Authentication and authorization
 */
export function staticTokenAuthenticator(tokens: readonly StaticToken[]): TokenAuthenticator {
  const byToken = new Map(tokens.map((t) => [t.token, t.user]));
  return {
    authenticateToken: (token): Promise<AuthenticationResult | undefined> => {
      const user = byToken.get(token);
      return Promise.resolve(user ? { user: { ...user, groups: [...user.groups] } } : undefined);
    },
  };
}
