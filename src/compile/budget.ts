/**
 * The budget of one compilation, enforced while the model is built rather than after: a variable or a
 * row past the size caps, the deadline passing or the request being cancelled stops the compilation with
 * a `BudgetExceeded` at once, so a hostile sequence costs at most the budget in time and memory.
 */
export interface CompileBudget {
  /** Most variables the model may have. */
  readonly maxVars?: number;
  /** Most non-zero coefficients over all rows (the bulk of a model's memory). */
  readonly maxNonzeros?: number;
  /** Wall-clock deadline (`Date.now()` milliseconds). */
  readonly deadline?: number;
  /** Aborted when the request is cancelled. */
  readonly signal?: AbortSignal;
}

export type BudgetKind = 'size' | 'time' | 'cancelled';

export class BudgetExceeded extends Error {
  readonly kind: BudgetKind;
  constructor(kind: BudgetKind, message: string) {
    super(message);
    this.name = 'BudgetExceeded';
    this.kind = kind;
  }
}

/** Operations between two looks at the clock (a look costs far more than a variable). */
const CLOCK_EVERY = 256;

/** Counts what the builder adds and looks at the clock and the signal every few operations. */
export class BudgetMeter {
  private nonzeros = 0;
  private ops = 0;

  constructor(private readonly budget: CompileBudget) {}

  /** Called with the variable count after adding one. */
  variable(count: number): void {
    const cap = this.budget.maxVars;
    if (cap !== undefined && count > cap) {
      throw new BudgetExceeded('size', `model too large: more than ${cap} variables (cap ${cap})`);
    }
    this.tick();
  }

  /** Called with the terms of a row added. */
  row(terms: number): void {
    this.nonzeros += terms;
    const cap = this.budget.maxNonzeros;
    if (cap !== undefined && this.nonzeros > cap) {
      throw new BudgetExceeded('size', `model too large: more than ${cap} coefficients (cap ${cap})`);
    }
    this.tick();
  }

  /** For loops that add nothing to the model for a while. */
  tick(): void {
    // The first operation looks too: a deadline already past stops the compilation at once.
    if (this.ops++ % CLOCK_EVERY === 0) this.check();
  }

  /** Throws when the deadline has passed or the request is cancelled. */
  check(): void {
    if (this.budget.signal?.aborted) throw new BudgetExceeded('cancelled', 'the request was cancelled');
    const deadline = this.budget.deadline;
    if (deadline !== undefined && Date.now() > deadline) {
      throw new BudgetExceeded('time', 'time limit reached while compiling the model');
    }
  }
}
