/** mkfifo for the tests (Node has no binding): the coreutils command. */
import { execFileSync } from 'node:child_process';

export function mkfifoSync(path: string): void {
  execFileSync('mkfifo', [path]);
}
