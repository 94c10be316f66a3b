/** `ValidateCoordinatedLeaseStrategy`, shared by Lease and LeaseCandidate. */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { isQualifiedName } from '../../schema/validation/names.js';

/** The coordinated leader election gate. */
export const COORDINATED_LEADER_ELECTION = 'CoordinatedLeaderElection';
/** The only Kubernetes-defined strategy. */
export const OLDEST_EMULATION_VERSION = 'OldestEmulationVersion';

/**
 * Validates a strategy. Kubernetes appends `strategy` to the path it is given, which already ends
 * in `strategy`, so the errors land on `spec.strategy.strategy`; kept as Kubernetes reports it.
 */
export function validateLeaseStrategy(strategy: string, path: string): FieldError[] {
  const fld = `${path}.strategy`;
  if (!strategy.includes('/')) {
    return strategy === OLDEST_EMULATION_VERSION ? [] : [fieldError.notSupported(fld, strategy, [OLDEST_EMULATION_VERSION])];
  }
  return isQualifiedName(strategy).map((msg) => fieldError.invalid(fld, strategy, msg));
}
