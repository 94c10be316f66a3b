/** AdmissionConfiguration: its kind and versions, and the reader of `--admission-control-config-file`. */
export * from './types.js';
export * from './read.js';
