/**
 * What the repairs of a batch did, in bounded memory: how many edits of each kind, how many `ask` steps
 * per answered record (a histogram), and which parameters were asked for most (names beyond a cap are
 * pooled). An `ask` is a value the repair could not find and the user must give.
 */
import type { Outcome } from './types.ts';

export interface EditStatsSummary {
  /** Edits by kind (`renameParam`, `slotFill`, …) over every repaired record, most frequent first. */
  readonly editKinds: Readonly<Record<string, number>>;
  /** Answered records (valid or repaired) by their number of `ask` steps: `0`, `1`, `2`, `3+`. */
  readonly asksPerRecord: Readonly<Record<string, number>>;
  /** The parameters asked for most, with counts. */
  readonly askedSlots: readonly { readonly slot: string; readonly asks: number }[];
}

const OTHER = '(other)';
const ASK_BINS = ['0', '1', '2', '3+'] as const;

export class EditStats {
  readonly #kinds = new Map<string, number>();
  readonly #asks = new Map<string, number>(ASK_BINS.map((b) => [b, 0]));
  readonly #slots = new Map<string, number>();
  readonly #maxSlots: number;
  readonly #top: number;

  constructor(maxSlots = 5_000, top = 10) {
    this.#maxSlots = maxSlots;
    this.#top = top;
  }

  add(outcome: Outcome): void {
    for (const [kind, n] of Object.entries(outcome.editKinds ?? {}))
      this.#kinds.set(kind, (this.#kinds.get(kind) ?? 0) + n);
    if (outcome.status !== 'valid' && outcome.status !== 'repaired' && outcome.status !== 'uncertain') return;
    const slots = outcome.askedSlots ?? [];
    const bin = ASK_BINS[Math.min(slots.length, ASK_BINS.length - 1)];
    this.#asks.set(bin, this.#asks.get(bin)! + 1);
    for (const slot of slots) {
      const key = this.#slots.has(slot) || this.#slots.size < this.#maxSlots ? slot : OTHER;
      this.#slots.set(key, (this.#slots.get(key) ?? 0) + 1);
    }
  }

  result(): EditStatsSummary {
    const byCount = (a: [string, number], b: [string, number]) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1);
    return {
      editKinds: Object.fromEntries([...this.#kinds].sort(byCount)),
      asksPerRecord: Object.fromEntries(this.#asks),
      askedSlots: [...this.#slots]
        .sort(byCount)
        .slice(0, this.#top)
        .map(([slot, asks]) => ({ slot, asks })),
    };
  }
}
