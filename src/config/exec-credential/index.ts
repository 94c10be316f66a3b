/** ExecCredential: its kind and versions, `KUBERNETES_EXEC_INFO`, and a plugin's answer. */
export * from './types.js';
export * from './exec-info.js';
