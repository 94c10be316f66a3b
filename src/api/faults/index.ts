/** Fault injection and the request log of caller requests. */
export { Faults, RequestLog, interceptedRequests, type FaultClock } from './faults.js';
export type * from './types.js';
