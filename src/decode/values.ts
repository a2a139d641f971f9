/** The values a decoded argument takes: an original value with its references rewritten, or a filled one. */
import type { Edit, Json } from '../model/types.ts';
import type { Call, Plan, Source, TokenOption } from '../compile/plan.ts';
import { formatReference, mapReferences, normalisePath } from '../read/references.ts';

/** Whether a 0/1 variable is on in a solution. */
export const on = (values: readonly number[], v: number): boolean => values[v] > 0.5;

export function rewriteTokens(
  call: Call,
  arg: string,
  value: Json,
  values: readonly number[],
  labels: Map<number, string>,
  at: number,
  edits: Edit[],
  confirm: (option: Exclude<TokenOption, { kind: 'ask' }>, raw: string) => void,
  askFor: (ask: number, from: string) => string,
): Json {
  const tokens = call.tokens.filter((t) => t.arg === arg);
  if (tokens.length === 0) return value;
  return mapReferences(value, (ref, path, index) => {
    const token = tokens.find((t) => t.site.index === index && sameAt(t.site.at, path));
    const option = token?.options.find((o) => on(values, o.v)) as TokenOption | undefined;
    if (!option) return ref.raw;
    if (option.kind === 'ask') return `$${askFor(option.ask, ref.raw)}$`;
    confirm(option, ref.raw);
    if (option.kind === 'keep')
      return option.follows ? formatReference(labels.get(option.call!)!, ref.path) : ref.raw;
    const target = option.call === null ? option.memoryLabel! : labels.get(option.call)!;
    const text = formatReference(target, option.path);
    edits.push({
      kind: option.call === null ? 'fromMemory' : 'reassign',
      step: at,
      param: arg,
      from: ref.raw,
      to: text,
      cost: option.cost,
      detail: `${arg}: ${ref.raw} -> ${text}`,
    });
    return text;
  });
}

/**
 * The label answering parameter `param`'s ask (source variable `v`): a new ask, or the answer to an earlier
 * call's ask of the same name that this one reads (`rebate`: what reading it saves on asking again).
 */
export type AskFn = (param: string, v: number) => { slot: string; rebate: number };

export function fillValue(
  plan: Plan,
  source: Source,
  labels: Map<number, string>,
  ask: AskFn,
  at: number,
  param: string,
  edits: Edit[],
): Json {
  // A value read from an output or a memory item: one edit of `kind`, its text the reference written.
  const read = (kind: Edit['kind'], text: string, detail: string): string => {
    edits.push({ kind, step: at, param, to: text, cost: source.cost, detail: `${param} = ${text}${detail}` });
    return text;
  };
  switch (source.kind) {
    case 'output': {
      const text = formatReference(labels.get(source.call)!, source.path);
      if (source.fromStep !== undefined)
        return read('reuseLiteral', text, ` (as passed at step ${source.fromStep + 1})`);
      const note = source.unread
        ? ` (an output no other call reads)`
        : source.linked
          ? ` (linked ${normalisePath(source.path)} -> ${param} by evidence)`
          : source.mapped
            ? ` (maps ${normalisePath(source.path)} -> ${param})`
            : '';
      return read(source.unread ? 'unreadOutput' : source.mapped ? 'newMap' : 'reassign', text, note);
    }
    case 'memory': {
      const text = formatReference(source.label, source.path);
      if (source.fromStep !== undefined)
        return read('reuseLiteral', text, ` (as passed at step ${source.fromStep + 1})`);
      if (source.fromExecuted !== undefined)
        return read('reuseLiteral', text, ` (as passed to executed call ${source.fromExecuted + 1})`);
      if (source.unread) return read('unreadOutput', text, ' from memory (an item no call reads)');
      return read('fromMemory', text, ' from memory');
    }
    case 'literal':
      edits.push({
        kind: 'reuseLiteral',
        step: at,
        param,
        to: JSON.stringify(source.value),
        cost: source.cost,
        detail: `${param} = ${short(source.value)} ${literalOrigin(source)}`,
      });
      return source.value;
    case 'ask': {
      const { slot, rebate } = ask(param, source.v);
      edits.push({
        kind: 'slotFill',
        step: at,
        param,
        to: `$${slot}$`,
        cost: source.cost - rebate,
        detail: rebate > 0 ? `${param} = $${slot}$ (the answer already asked for)` : `ask(${param})`,
      });
      return `$${slot}$`;
    }
    default:
      void plan;
      throw new Error('internal: argument sources are decoded with their argument');
  }
}

function sameAt(a: readonly (string | number)[], b: readonly (string | number)[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export function short(value: Json): string {
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** Where a literal came from, for its edit's detail. */
function literalOrigin(source: {
  readonly fromStep: number;
  readonly fromExecuted?: number;
  readonly defaulted?: boolean;
  readonly copiedFrom?: string;
}): string {
  if (source.defaulted) return "(the API's default, as the plan spells out its calls' defaults)";
  if (source.fromExecuted !== undefined) return `(as passed to executed call ${source.fromExecuted + 1})`;
  if (source.copiedFrom !== undefined)
    return `(as passed to ${source.copiedFrom} at step ${source.fromStep + 1})`;
  return source.fromStep >= 0 ? `(as passed at step ${source.fromStep + 1})` : '(goal value)';
}
