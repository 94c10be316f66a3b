/**
 * The text of a list of errors as k8s.io/apimachinery's `utilerrors.NewAggregate(errs).Error()`
 * prints it: one error as itself; several, each distinct message once, in order, as `[a, b]`.
 */
export function aggregateErrorText(messages: readonly string[]): string {
  if (messages.length === 0) return '';
  if (messages.length === 1) return messages[0]!;
  const seen = [...new Set(messages)];
  return seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`;
}
