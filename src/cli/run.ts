/** The `memkube` command itself: parses the command line and runs it (`main.ts` is how it is started). */
import { credential, CREDENTIAL_USAGE, parseCredentialArgs } from './credential.js';
import { CRI_USAGE } from './cri-usage.js';
import { helpHint, wantsHelp } from './help.js';
import { parseServeArgs, serve, SERVE_USAGE } from './serve.js';

const USAGE =
  'usage: memkube <command>\n\ncommands:\n  serve       serve a fake cluster over HTTP\n  credential  an exec credential plugin for kubectl\n  cri         serve the memkube container runtime (CRI) on a unix socket\n  node-agent  run a node agent (a small kubelet) against an API server and a CRI runtime\n\n' +
  `${SERVE_USAGE}\n\n${CREDENTIAL_USAGE}\n\n${CRI_USAGE}`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      if (wantsHelp(rest)) {
        process.stdout.write(`${SERVE_USAGE}\n`);
        return 0;
      }
      await serve(parseServeArgs(rest));
      return 0;
    case 'credential':
      if (wantsHelp(rest)) {
        process.stdout.write(`${CREDENTIAL_USAGE}\n`);
        return 0;
      }
      process.stdout.write(`${await credential(parseCredentialArgs(rest))}\n`);
      return 0;
    case 'cri': {
      if (wantsHelp(rest)) {
        process.stdout.write(`${CRI_USAGE}\n`);
        return 0;
      }
      // Imported here so that no other command loads gRPC.
      const { cri, parseCriArgs } = await import('./cri.js');
      await cri(parseCriArgs(rest));
      return 0;
    }
    case 'node-agent': {
      // Imported here so that no other command loads gRPC; `--help` prints kubelet's flags.
      const { nodeAgent } = await import('./node-agent.js');
      await nodeAgent(rest);
      return 0;
    }
    case 'help':
      // `memkube help serve` is `memkube serve --help`; `memkube help` alone is the overview.
      if (rest[0] !== undefined && rest[0] !== 'help') return main([rest[0], '--help']);
      process.stdout.write(`${USAGE}\n`);
      return 0;
    case '-h':
    case '--help':
      process.stdout.write(`${USAGE}\n`);
      return 0;
    case undefined:
      // No command is a mistake, not a question: the usage goes to stderr and the exit says so.
      process.stderr.write(`${USAGE}\n`);
      return 2;
    default:
      process.stderr.write(`unknown command ${JSON.stringify(command)}\n${helpHint(undefined)}\n`);
      return 2;
  }
}

const argv = process.argv.slice(2);
main(argv).then(
  (code) => process.exit(code),
  (e: unknown) => {
    const message = e instanceof Error ? e.message : String(e);
    // A parser's error about a flag ends with where the usage is.
    const hint = /^(unknown (argument|flag|command)|flag needs an argument)/m.test(message) ? `\n${helpHint(argv[0])}` : '';
    process.stderr.write(`memkube: ${message}${hint}\n`);
    process.exit(1);
  },
);
