/** The node agent's command line and configuration file: flags, loading, precedence. */
export * from './pflag.js';
export * from './flag-values.js';
export * from './flags.js';
export * from './node-labels.js';
export * from './load.js';
