/** EgressSelectorConfiguration: its versions, validation, loading, and the dialers it describes. */
export * from './types.js';
export * from './validation.js';
export * from './selector.js';
export * from './load.js';
