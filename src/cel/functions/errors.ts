/** The runtime error messages cel-go uses, as CelError values. */
import { CelError } from '../values/values.js';

export const divisionByZero = (): CelError => new CelError('division by zero');
export const modulusByZero = (): CelError => new CelError('modulus by zero');
export const intOverflow = (): CelError => new CelError('integer overflow');
export const uintOverflow = (): CelError => new CelError('unsigned integer overflow');
export const durationOverflow = (): CelError => new CelError('duration overflow');
export const timestampOverflow = (): CelError => new CelError('timestamp overflow');
export const noSuchOverload = (): CelError => new CelError('no such overload');
export const noSuchKey = (key: string): CelError => new CelError(`no such key: ${key}`);
export const conversionError = (from: string, to: string): CelError => new CelError(`type conversion error from '${from}' to '${to}'`);
