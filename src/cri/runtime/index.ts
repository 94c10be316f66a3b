/** memkube's own CRI runtime: in process, and (see server.ts) over a unix socket. */
export { createInProcessCriRuntime, type InProcessCriRuntime, type InProcessCriRuntimeOptions } from './runtime.js';
export { CriFaults, type FaultOptions } from './faults.js';
export type { ContainerBehaviour, ScriptedLog } from './records.js';
export { readTar, writeTar, type TarEntry, type TarMember } from './tar.js';
export { criLogLines, formatRfc3339Nano, type LogStream } from './cri-log.js';
export { normalizeImageReference } from './images.js';
export { createCriRuntime, type CriRuntimeOptions, type CriRuntimeServer } from './server.js';
export { behaviourFromEnv, CRI_BEHAVIOUR_ENV } from './env-behaviour.js';
