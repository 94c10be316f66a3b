/**
 * Variable bindings during evaluation: the caller's variables at the root and one small frame per
 * comprehension (its accumulator and iteration variables).
 */
import type { Value } from '../values/values.js';

/** Resolves a variable name to its value. */
export interface Activation {
  resolve(name: string): Value | undefined;
}

/** The caller's variables. */
export class MapActivation implements Activation {
  constructor(private readonly vars: Readonly<Record<string, Value | undefined>>) {}
  resolve(name: string): Value | undefined {
    return Object.prototype.hasOwnProperty.call(this.vars, name) ? this.vars[name] : undefined;
  }
}

/** A comprehension's variables over its enclosing activation. */
export class Frame implements Activation {
  accu: Value = null;
  iter: Value = null;
  iter2: Value = null;
  constructor(
    private readonly parent: Activation,
    private readonly accuName: string,
    private readonly iterName: string,
    private readonly iter2Name: string | undefined,
  ) {}
  resolve(name: string): Value | undefined {
    if (name === this.iterName) return this.iter;
    if (name === this.iter2Name) return this.iter2;
    if (name === this.accuName) return this.accu;
    return this.parent.resolve(name);
  }
}
