/** NodeAgentConfiguration (kubelet's KubeletConfiguration): types, decoding, defaults, validation, feature gates. */
export * from './types.js';
export * from './go-duration.js';
export * from './feature-gates.js';
export * from './decode.js';
export * from './defaults.js';
export * from './validation.js';
