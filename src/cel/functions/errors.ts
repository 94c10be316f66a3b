/** The runtime error messages cel-go uses, as CelError values. */
import { CelError } from '../values/values.js';

/** `division by zero`. */
export const divisionByZero = (): CelError => new CelError('division by zero');
/** `modulus by zero`. */
export const modulusByZero = (): CelError => new CelError('modulus by zero');
/** `integer overflow`. */
export const intOverflow = (): CelError => new CelError('integer overflow');
/** `unsigned integer overflow`. */
export const uintOverflow = (): CelError => new CelError('unsigned integer overflow');
/** `duration overflow`. */
export const durationOverflow = (): CelError => new CelError('duration overflow');
/** `timestamp overflow`. */
export const timestampOverflow = (): CelError => new CelError('timestamp overflow');
/** `no such overload`. */
export const noSuchOverload = (): CelError => new CelError('no such overload');
/** `no such key: <key>`. */
export const noSuchKey = (key: string): CelError => new CelError(`no such key: ${key}`);
/** `type conversion error from '<from>' to '<to>'`. */
export const conversionError = (from: string, to: string): CelError => new CelError(`type conversion error from '${from}' to '${to}'`);
