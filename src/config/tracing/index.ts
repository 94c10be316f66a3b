/** TracingConfiguration: its versions, defaults, validation and loading. */
export * from './types.js';
export * from './validation.js';
export * from './load.js';
