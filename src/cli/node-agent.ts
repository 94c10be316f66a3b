/**
 * `memkube node-agent`: memkube's small kubelet, with kubelet's flags and configuration file. It
 * registers its Node with the API server of `--kubeconfig` (after TLS bootstrap with
 * `--bootstrap-kubeconfig` when needed), runs the node's pods in the CRI runtime of
 * `--container-runtime-endpoint` and serves kubelet's HTTPS endpoints. Prints one line once it
 * serves, and stops on SIGTERM/SIGINT, leaving the pods in the runtime as a kubelet restart does.
 * Loaded by `run.ts` only for this command, so `memkube serve` never loads gRPC.
 */
import { KUBERNETES_VERSION } from '../http/version.js';
import { Logger, type LoggerEnvironment } from '../log/index.js';
import { loadNodeAgentSettings } from '../nodeagent/config/load.js';
import { runNodeAgent } from '../nodeagent/run.js';

/** Runs the agent until SIGTERM or SIGINT; `out` gets the one line saying where it serves. */
export async function nodeAgent(
  argv: readonly string[],
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
  logEnvironment: LoggerEnvironment = {},
): Promise<void> {
  const settings = loadNodeAgentSettings(argv);
  if (settings.usage !== undefined) {
    out(settings.usage);
    return;
  }
  if (settings.flags.version) {
    out(`Kubernetes ${KUBERNETES_VERSION.gitVersion}`);
    return;
  }
  const logger = new Logger(settings.config.logging, logEnvironment);
  for (const warning of settings.warnings) logger.warning(warning);
  const running = await runNodeAgent({ settings, log: logger });
  const where = running.port === undefined ? 'no server' : `https://${settings.config.address}:${running.port}`;
  out(`memkube node-agent ${running.nodeName} serving on ${where}${running.readOnlyPort ? ` (read-only port ${running.readOnlyPort})` : ''}`);
  await new Promise<void>((done) => {
    const stop = (): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      void running.stop().then(done, (e: unknown) => {
        logger.errorS(e, 'Stopping the node agent failed');
        done();
      });
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}
