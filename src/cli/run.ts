/** The `memkube` command itself: parses the command line and runs it (`main.ts` is how it is started). */
import { credential, CREDENTIAL_USAGE, parseCredentialArgs } from './credential.js';
import { CRI_USAGE } from './cri-usage.js';
import { parseServeArgs, serve, SERVE_USAGE } from './serve.js';

const USAGE =
  'usage: memkube <command>\n\ncommands:\n  serve       serve a fake cluster over HTTP\n  credential  an exec credential plugin for kubectl\n  cri         serve the memkube container runtime (CRI) on a unix socket\n  node-agent  run a node agent (a small kubelet) against an API server and a CRI runtime\n\n' +
  `${SERVE_USAGE}\n\n${CREDENTIAL_USAGE}\n\n${CRI_USAGE}`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      await serve(parseServeArgs(rest));
      return 0;
    case 'credential':
      if (rest[0] === '-h' || rest[0] === '--help') {
        process.stdout.write(`${CREDENTIAL_USAGE}\n`);
        return 0;
      }
      process.stdout.write(`${await credential(parseCredentialArgs(rest))}\n`);
      return 0;
    case 'cri': {
      // Imported here so that no other command loads gRPC.
      const { cri, parseCriArgs } = await import('./cri.js');
      if (rest[0] === '-h' || rest[0] === '--help') {
        process.stdout.write(`${CRI_USAGE}\n`);
        return 0;
      }
      await cri(parseCriArgs(rest));
      return 0;
    }
    case 'node-agent': {
      // Imported here so that no other command loads gRPC; `--help` prints kubelet's flags.
      const { nodeAgent } = await import('./node-agent.js');
      await nodeAgent(rest);
      return 0;
    }
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`unknown command ${JSON.stringify(command)}\n${USAGE}\n`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`memkube: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
