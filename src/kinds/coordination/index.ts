/** The coordination group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { LeaseCandidateKind } from './lease-candidate.js';
import { LeaseKind } from './lease.js';

export { LeaseKind, type Lease } from './lease.js';
export { LeaseCandidateKind, type LeaseCandidate } from './lease-candidate.js';

/** Lease and LeaseCandidate. */
export const coordinationKinds: readonly KindDefinition[] = [LeaseKind, LeaseCandidateKind];
