/**
 * How every `memkube` command answers a request for help: `-h` or `--help` anywhere among its
 * arguments (as pflag does for kube-apiserver and kubectl), or `memkube help <command>`.
 */

/** Whether the arguments ask for the command's usage instead of running it. */
export function wantsHelp(args: readonly string[]): boolean {
  return args.some((arg) => arg === '-h' || arg === '--help');
}

/**
 * The line that follows an error about the command line, naming where the usage is: the usage
 * itself is long, and a mistyped flag should not scroll the message away.
 */
export function helpHint(command: string | undefined): string {
  return `run "memkube ${command ? `${command} ` : ''}--help" for usage`;
}
