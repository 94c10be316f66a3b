/** The authentication group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { SelfSubjectReviewKind } from './self-subject-review.js';
import { TokenReviewKind } from './token-review.js';

export { SelfSubjectReviewKind, type SelfSubjectReview } from './self-subject-review.js';
export { TokenReviewKind, type TokenReview } from './token-review.js';

/** SelfSubjectReview and TokenReview. */
export const authenticationKinds: readonly KindDefinition[] = [SelfSubjectReviewKind, TokenReviewKind];
