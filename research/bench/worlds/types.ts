/**
 * The shapes of the synthetic world (entities, actions, their literal parameters and output fields) and
 * compact constructors for writing it down: `'airport@origin'` is an input of entity `airport` in role
 * `origin`, `'price:number'` an output field, `req('check in', DATES)` a required literal with its values.
 */
import type { Json } from '../../../src/model/types.ts';

export type LiteralType = 'string' | 'integer' | 'number' | 'boolean';

export interface LiteralDef {
  readonly words: readonly string[];
  readonly type: LiteralType;
  readonly required: boolean;
  readonly values: readonly Json[];
}

export interface EntityDef {
  readonly name: string;
  /** Vendor prefix of the domain (camelCase style: `skySearchFlights`). */
  readonly domain: string;
  /** The lookup: verb and the parameter a person fills in, with values. Absent: only actions make it. */
  readonly lookup?: {
    readonly verb: string;
    readonly query: readonly string[];
    readonly values: readonly string[];
  };
  /** Other outputs of the lookup besides the id. */
  readonly extras: readonly (readonly string[])[];
}

export interface RoleDef {
  readonly entity: string;
  readonly role?: string;
}

export interface FieldDef {
  readonly words: readonly string[];
  readonly type: LiteralType;
}

export interface ActionDef {
  readonly words: readonly string[];
  readonly domain: string;
  readonly inputs: readonly RoleDef[];
  readonly literals: readonly LiteralDef[];
  /** The entity whose id the action outputs, for later actions. */
  readonly produces?: string;
  readonly fields: readonly FieldDef[];
  /** What the action does, for descriptions. */
  readonly about: string;
}

const split = (text: string): string[] => text.split(' ').filter(Boolean);

function typeOf(values: readonly Json[]): LiteralType {
  if (values.every((v) => typeof v === 'boolean')) return 'boolean';
  if (values.every((v) => Number.isInteger(v))) return 'integer';
  return values.every((v) => typeof v === 'number') ? 'number' : 'string';
}

const literal = (required: boolean) => (words: string, values: readonly Json[]) => ({
  words: split(words),
  type: typeOf(values),
  required,
  values,
});
export const req = literal(true);
export const opt = literal(false);

export function entity(
  name: string,
  domain: string,
  lookup: string,
  values: readonly string[],
  extras: string,
) {
  const [verb, ...query] = split(lookup);
  return {
    name,
    domain,
    ...(verb ? { lookup: { verb, query, values } } : {}),
    extras: split(extras).map((e) => e.split('_')),
  };
}

export function action(
  domain: string,
  words: string,
  inputs: string,
  literals: readonly LiteralDef[],
  produces: string,
  fields: string,
  about: string,
): ActionDef {
  return {
    words: split(words),
    domain,
    inputs: split(inputs).map((x) => {
      const [entity, role] = x.split('@');
      return role ? { entity, role } : { entity };
    }),
    literals,
    ...(produces ? { produces } : {}),
    fields: split(fields).map((f) => {
      const [name, type] = f.split(':');
      return { words: name.split('_'), type: type as LiteralType };
    }),
    about,
  };
}
