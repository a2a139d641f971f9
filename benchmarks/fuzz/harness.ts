/**
 * Runs one fuzz input: a result or an InputError is fine; any other exception, or a built-in prototype that
 * gained or changed a property, is a failure.
 */
import type fc from 'fast-check';
import { InputError } from '../../src/model/errors.ts';

/** A broken property (not an InputError, not an expected result). */
export class Violation extends Error {}

export const fail = (message: string): never => {
  throw new Violation(message);
};

export interface Target {
  readonly name: string;
  /** Runs that need the solver are slow: the big run gives them fewer inputs. */
  readonly solver: boolean;
  readonly arbitrary: fc.Arbitrary<unknown>;
  /** Throws a Violation when a property breaks; any non-InputError exception is a failure too. */
  readonly run: (input: never) => unknown;
}

export type Outcome = 'result' | 'input';

const PROTOTYPES = {
  Object: Object.prototype,
  Array: Array.prototype,
  Function: Function.prototype,
  String: String.prototype,
};

type Snapshot = Map<string, PropertyDescriptor | undefined>;

export function snapshot(): Snapshot {
  const out: Snapshot = new Map();
  for (const [name, proto] of Object.entries(PROTOTYPES))
    for (const key of Reflect.ownKeys(proto))
      out.set(`${name}.${String(key)}`, Object.getOwnPropertyDescriptor(proto, key));
  return out;
}

/** What changed on the built-in prototypes since `before` (and puts it back), or `null`. */
export function pollution(before: Snapshot): string | null {
  const changed: string[] = [];
  for (const [name, proto] of Object.entries(PROTOTYPES)) {
    for (const key of Reflect.ownKeys(proto)) {
      const id = `${name}.${String(key)}`;
      const was = before.get(id);
      const now = Object.getOwnPropertyDescriptor(proto, key);
      if (was === undefined) {
        changed.push(`${id} added`);
        delete (proto as Record<PropertyKey, unknown>)[key];
      } else if (was.value !== now?.value || was.get !== now?.get) {
        changed.push(`${id} replaced`);
        Object.defineProperty(proto, key, was);
      }
    }
  }
  return changed.length > 0 ? changed.join(', ') : null;
}

/** Runs one input: a result or an InputError is fine; anything else (or a polluted prototype) throws. */
export async function runOne(target: Target, input: unknown): Promise<Outcome> {
  const before = snapshot();
  let outcome: Outcome = 'result';
  try {
    await target.run(input as never);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    outcome = 'input';
  } finally {
    const dirty = pollution(before);
    if (dirty) fail(`built-in prototype changed: ${dirty}`);
  }
  return outcome;
}
