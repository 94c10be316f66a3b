/** The authorization group's kinds: the access reviews. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { SelfSubjectRulesReviewKind } from './self-subject-rules-review.js';
import { LocalSubjectAccessReviewKind, SelfSubjectAccessReviewKind, SubjectAccessReviewKind } from './subject-access-review.js';

export {
  LocalSubjectAccessReviewKind,
  SelfSubjectAccessReviewKind,
  SubjectAccessReviewKind,
  type LocalSubjectAccessReview,
  type SelfSubjectAccessReview,
  type SubjectAccessReview,
} from './subject-access-review.js';
export { SelfSubjectRulesReviewKind, type SelfSubjectRulesReview } from './self-subject-rules-review.js';

/** The four access reviews. */
export const authorizationKinds: readonly KindDefinition[] = [
  LocalSubjectAccessReviewKind,
  SelfSubjectAccessReviewKind,
  SelfSubjectRulesReviewKind,
  SubjectAccessReviewKind,
];
