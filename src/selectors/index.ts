/** Selectors as Kubernetes parses and matches them: label, field and shard selectors. */
export {
  parseLabelSelector,
  labelSelectorFromObject,
  labelSelectorFromSet,
  everythingLabelSelector,
  nothingLabelSelector,
  SelectorParseError,
  type LabelSelector,
  type LabelRequirement,
  type LabelOperator,
  type LabelSelectorObject,
} from './label-selector.js';
export { parseFieldSelector, type FieldSelector, type FieldRequirement } from './field-selector.js';
export { parseShardSelector, fnv1a64, ShardSelectorParseError, type ShardSelector, type ShardRange, type ShardField } from './shard-selector.js';
