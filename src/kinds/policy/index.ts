/** The policy group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { PodDisruptionBudgetKind } from './pod-disruption-budget.js';

export { PodDisruptionBudgetKind, type PodDisruptionBudget } from './pod-disruption-budget.js';

/** PodDisruptionBudget (policy/v1; pods/eviction is served by the core group). */
export const policyKinds: readonly KindDefinition[] = [PodDisruptionBudgetKind];
