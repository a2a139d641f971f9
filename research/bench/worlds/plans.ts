/**
 * Gold plans over a rendered world, the way a careful planner writes them: a goal action whose ids come
 * from lookups of things a person named (or from earlier actions: an order's shipment), parallel roles
 * fed from separate lookups of different values (a flight from Boston to Denver), an id shared by two
 * actions (the city of both the hotel search and the forecast), sometimes a follow-up on the goal's
 * output, and an answer step that returns what the leaves computed. Seeded per plan; every plan validates.
 */
import type { Json, PathSegment } from '../../../src/model/types.ts';
import type { NestfulStep } from '../../../src/read/sequence.ts';
import { formatReference } from '../../../src/read/references.ts';
import { choose, type Rng } from '../../../src/model/prng.ts';
import { validate } from '../../../src/validate/validate.ts';
import type { RenderedApi, World } from './catalog.ts';

const MAX_DEPTH = 3;

class PlanBuilder {
  readonly steps: NestfulStep[] = [];
  /** Entity → steps that output its id. */
  private readonly producers = new Map<string, number[]>();
  /** Entity → query values already looked up, so parallel lookups differ. */
  private readonly asked = new Map<string, Set<string>>();
  private readonly keys: (readonly PathSegment[] | null)[] = [];

  constructor(
    private readonly rng: Rng,
    private readonly world: World,
  ) {}

  private push(api: RenderedApi, args: Record<string, Json>, produces: string | null): number {
    const index = this.steps.length;
    this.steps.push({ name: api.name, arguments: args, label: `var${index + 1}` });
    this.keys.push(api.outputs.key);
    if (produces) this.producers.set(produces, [...(this.producers.get(produces) ?? []), index]);
    return index;
  }

  private lookup(entity: string): number | null {
    const api = this.world.apis.find((a) => a.lookup?.name === entity);
    if (!api) return null;
    const asked = this.asked.get(entity) ?? new Set<string>();
    const fresh = api.literals[0].values.filter((v) => !asked.has(String(v)));
    if (fresh.length === 0) return null;
    const value = choose(this.rng, fresh) as string;
    asked.add(value);
    this.asked.set(entity, asked);
    return this.push(api, { [api.literalParams[0]]: value }, entity);
  }

  /** A step whose output is an id of `entity`: an earlier one (unless `fresh`), a lookup, or an action. */
  private produce(entity: string, depth: number, avoid: ReadonlySet<number>, fresh: boolean): number | null {
    const earlier = (this.producers.get(entity) ?? []).filter((i) => !avoid.has(i));
    if (!fresh && earlier.length > 0 && this.rng() < 0.75) return choose(this.rng, earlier);
    const found = this.lookup(entity);
    if (found !== null) return found;
    const makers = this.world.apis.filter((a) => a.action?.produces === entity);
    if (makers.length === 0) return earlier.length > 0 ? choose(this.rng, earlier) : null;
    return this.call(choose(this.rng, makers), depth + 1);
  }

  /** Calls an action, first producing each id it takes; null when the world cannot feed it. */
  call(api: RenderedApi, depth = 0, reuse?: { entity: string; step: number }): number | null {
    const action = api.action!;
    if (depth > MAX_DEPTH) return null;
    const args: Record<string, Json> = {};
    const fed = new Set<number>();
    for (const [k, input] of action.inputs.entries()) {
      const parallel = action.inputs.filter((i) => i.entity === input.entity).length > 1;
      const step =
        reuse && reuse.entity === input.entity && !fed.has(reuse.step)
          ? reuse.step
          : this.produce(input.entity, depth, fed, parallel);
      if (step === null) return null;
      fed.add(step);
      args[api.entityParams[k]] = formatReference(this.steps[step].label!, this.keys[step]!);
    }
    action.literals.forEach((literal, k) => {
      if (literal.required || this.rng() < 0.35)
        args[api.literalParams[k]] = choose(this.rng, literal.values);
    });
    return this.push(api, args, action.produces ?? null);
  }

  /** Steps no later step reads: what the answer returns. */
  leaves(): number[] {
    const read = new Set<string>();
    for (const step of this.steps) {
      for (const m of JSON.stringify(step.arguments).matchAll(/\$(var\d+)/g)) read.add(m[1]);
    }
    return this.steps.flatMap((s, i) => (read.has(s.label!) ? [] : [i]));
  }

  /** The answer step: one entry per leaf, a field of it or its whole output. */
  answer(): NestfulStep {
    const args: Record<string, Json> = {};
    for (const i of this.leaves()) {
      const api = this.world.apis.find((a) => a.name === this.steps[i].name)!;
      const words = api.action ? api.action.words.slice(1) : [api.lookup!.name];
      let key = this.world.style.param(words);
      for (let n = 2; key in args; n++) key = this.world.style.param([...words, String(n)]);
      const field = api.outputs.fields[0];
      args[key] = formatReference(this.steps[i].label!, field && this.rng() < 0.5 ? field : []);
    }
    return { name: 'var_result', arguments: args };
  }

  producerOf(entity: string): number | undefined {
    return this.producers.get(entity)?.at(-1);
  }
}

/** One gold plan, or null when the draw could not be fed (the caller draws again). */
export function generatePlan(rng: Rng, world: World): NestfulStep[] | null {
  const actions = world.apis.filter((a) => a.action && a.action.inputs.length > 0);
  const b = new PlanBuilder(rng, world);
  const goal = choose(rng, actions);
  if (b.call(goal) === null) return null;
  const made = goal.action!.produces;
  const follow = actions.filter((a) => made && a.action!.inputs.some((i) => i.entity === made));
  if (made && follow.length > 0 && rng() < 0.6) {
    if (b.call(choose(rng, follow), 0, { entity: made, step: b.producerOf(made)! }) === null) return null;
  }
  if (rng() < 0.4) {
    // A second action on an id the plan already has: fan-out from one lookup to two consumers.
    const known = actions.filter(
      (a) => a !== goal && a.action!.inputs.some((i) => b.producerOf(i.entity) !== undefined),
    );
    if (known.length > 0) {
      const next = choose(rng, known);
      const input = next.action!.inputs.find((i) => b.producerOf(i.entity) !== undefined)!;
      if (b.call(next, 0, { entity: input.entity, step: b.producerOf(input.entity)! }) === null) return null;
    }
  }
  const steps = [...b.steps, b.answer()];
  const check = validate(steps, world.catalog);
  if (!check.valid)
    throw new Error(`generated plan is invalid: ${check.issues.map((i) => i.message).join('; ')}`);
  return steps;
}
