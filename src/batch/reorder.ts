/**
 * Puts results that finish out of order back into input order. The caller bounds how far ahead of the
 * next expected number it lets work run, which bounds what this buffer holds.
 */
export class ReorderBuffer<T> {
  #next = 0;
  readonly #held = new Map<number, T>();
  readonly #emit: (value: T) => void;

  constructor(emit: (value: T) => void) {
    this.#emit = emit;
  }

  /** Number of values emitted so far (= the sequence number expected next). */
  get emitted(): number {
    return this.#next;
  }

  /** Values waiting for an earlier one. */
  get held(): number {
    return this.#held.size;
  }

  put(seq: number, value: T): void {
    if (seq < this.#next || this.#held.has(seq)) throw new Error(`internal: result ${seq} delivered twice`);
    this.#held.set(seq, value);
    for (let v = this.#held.get(this.#next); v !== undefined; v = this.#held.get(this.#next)) {
      this.#held.delete(this.#next);
      this.#next++;
      this.#emit(v);
    }
  }
}
