/**
 * What a backend does with events it could not keep (k8s.io/apiserver `audit.HandlePluginError`):
 * the API server counts them in `apiserver_audit_error_total{plugin}` and logs the error. The
 * backends take the handler in their options so that the pipeline decides where the count goes.
 */

/**
 * Told that `events` events were lost by the plugin named `plugin` (`log`, `webhook`, `buffered`,
 * `truncate`), and why.
 */
export type AuditErrorHandler = (plugin: string, events: number, error: Error) => void;

/** The handler when none is given: the loss is silent. */
export const IGNORE_AUDIT_ERRORS: AuditErrorHandler = () => undefined;
