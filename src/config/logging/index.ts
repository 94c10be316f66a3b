/** LoggingConfiguration: types, strict decoding of the bare object, defaults, validation, flags. */
export * from './types.js';
export * from './values.js';
export * from './decode.js';
export * from './defaults.js';
export * from './validation.js';
export * from './flags.js';
