/**
 * kube-apiserver's `--token-auth-file`: a CSV file of static bearer tokens, one per line,
 * `token,user,uid,"group1,group2"` (k8s.io/apiserver `pkg/authentication/token/tokenfile`).
 */
import type { AuthenticationResult, TokenAuthenticator } from '../../machinery/auth.js';
import type { UserInfo } from '../../machinery/request.js';

/** A static token and its user. */
export interface StaticToken {
  readonly token: string;
  readonly user: UserInfo;
}

/**
 * Go's encoding/csv records (fields separated by commas, `"` quoting with `""` for a quote, records
 * of any length, blank lines skipped). Throws Go's parse error for a stray quote.
 */
function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let line = 1;
  let i = 0;
  while (i < text.length) {
    if (text[i] === '\n' || (text[i] === '\r' && text[i + 1] === '\n')) {
      i += text[i] === '\r' ? 2 : 1;
      line++;
      continue;
    }
    const record: string[] = [];
    const recordLine = line;
    for (;;) {
      let field = '';
      const column = i;
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= text.length) throw new Error(`record on line ${recordLine}; parse error on line ${line + 1}, column 0: extraneous or missing " in quoted-field`);
          const c = text[i]!;
          if (c === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c === '\n') line++;
          field += c;
          i++;
        }
        if (i < text.length && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') {
          throw new Error(`parse error on line ${line}, column ${i - column + 1}: extraneous or missing " in quoted-field`);
        }
      } else {
        while (i < text.length && text[i] !== ',' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) {
          if (text[i] === '"') throw new Error(`parse error on line ${line}, column ${i - column + 1}: bare " in non-quoted-field`);
          field += text[i];
          i++;
        }
      }
      record.push(field);
      if (text[i] === ',') {
        i++;
        continue;
      }
      break;
    }
    records.push(record);
  }
  return records;
}

/**
 * The tokens of a token file's text (`tokenfile.NewCSV`): at least three columns per record, else
 * kube-apiserver's error; records with an empty token are skipped; a later duplicate wins.
 *
 * @param path the file's name, for messages
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

/** A token authenticator over static tokens. */
export function staticTokenAuthenticator(tokens: readonly StaticToken[]): TokenAuthenticator {
  const byToken = new Map(tokens.map((t) => [t.token, t.user]));
  return {
    authenticateToken: (token): Promise<AuthenticationResult | undefined> => {
      const user = byToken.get(token);
      return Promise.resolve(user ? { user: { ...user, groups: [...user.groups] } } : undefined);
    },
  };
}
