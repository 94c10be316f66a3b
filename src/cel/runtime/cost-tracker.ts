/**
 * The running cost of an evaluation (cel-go interpreter.CostTracker): every step adds its cost and
 * evaluation stops as soon as the total passes the limit.
 */

/** Thrown when the running cost passes the limit; the evaluator turns it into an error result. */
export class CostLimitExceeded extends Error {
  constructor() {
    super('operation cancelled: actual cost limit exceeded');
  }
}

/** The cost so far and the limit it may not pass. */
export class CostTracker {
  cost = 0;
  constructor(readonly limit: number) {}
  add(n: number): void {
    this.cost += n;
    if (this.cost > this.limit) throw new CostLimitExceeded();
  }
}
