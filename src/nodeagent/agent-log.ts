/**
 * What the node agent logs through: klog's structured calls, which memkube's `Logger` has. The
 * default writes nothing, so an agent embedded in a test is quiet unless given a logger.
 */

/**
 * The structured logging calls the agent makes (`klog.InfoS`, `klog.ErrorS`).
 * @category Node agent
 */
export interface AgentLog {
  /** An informational message with key/value pairs. */
  infoS(msg: string, ...kv: unknown[]): void;
  /** An error, a message and key/value pairs. */
  errorS(err: unknown, msg: string, ...kv: unknown[]): void;
}

/** A log that drops everything. */
export const silentLog: AgentLog = { infoS: () => undefined, errorS: () => undefined };
