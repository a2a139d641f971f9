/**
 * A style applied to the world: one NESTFUL spec entry per lookup and per action (`query_parameters`,
 * `output_parameters`), kept together with the names a plan needs to call each API (which parameter
 * takes which entity, which literal, where the id sits in the output). The spec is what ships under
 * `benchmarks/data/`; the catalog used in the benchmark is parsed from it, so the two cannot differ.
 */
import type { Catalog, Json } from '../../../src/model/types.ts';
import { parseCatalog } from '../../../src/read/catalog.ts';
import type { RenderedOutputs, Style } from './styles.ts';
import type { ActionDef, EntityDef, LiteralDef } from './types.ts';
import { ACTIONS, ENTITIES } from './vocabulary.ts';

export interface RenderedApi {
  readonly name: string;
  /** The entity a lookup finds, or the action. */
  readonly lookup?: EntityDef;
  readonly action?: ActionDef;
  /** Parameter name per entity input of an action (same order as `action.inputs`). */
  readonly entityParams: readonly string[];
  /** Parameter name per literal (the lookup's query is its only literal). */
  readonly literalParams: readonly string[];
  readonly literals: readonly LiteralDef[];
  readonly outputs: RenderedOutputs;
}

export interface World {
  readonly style: Style;
  readonly apis: readonly RenderedApi[];
  /** The NESTFUL spec array written to `benchmarks/data/`. */
  readonly spec: Json[];
  readonly catalog: Catalog;
}

function param(type: string, description: string, required: boolean): Json {
  return { type, description, required };
}

function lookupApi(style: Style, entity: EntityDef): { api: RenderedApi; spec: Json } {
  const lookup = entity.lookup!;
  const query: LiteralDef = { words: lookup.query, type: 'string', required: true, values: lookup.values };
  const api: RenderedApi = {
    name: style.lookupName(entity),
    lookup: entity,
    entityParams: [],
    literalParams: [style.param(lookup.query)],
    literals: [query],
    outputs: style.lookupOutputs(entity),
  };
  const spec = {
    name: api.name,
    description: `Find a ${entity.name} by its ${lookup.query.join(' ')}.`,
    query_parameters: {
      [api.literalParams[0]]: param('string', `The ${lookup.query.join(' ')} of the ${entity.name}.`, true),
    },
    output_parameters: api.outputs.outputs,
  };
  return { api, spec };
}

function actionApi(style: Style, action: ActionDef): { api: RenderedApi; spec: Json } {
  const entityParams = action.inputs.map((i) => style.entityParam(i.entity, i.role));
  const literalParams = action.literals.map((l) => style.param(l.words));
  const api: RenderedApi = {
    name: style.actionName(action),
    action,
    entityParams,
    literalParams,
    literals: action.literals,
    outputs: style.actionOutputs(action),
  };
  const params: Record<string, Json> = {};
  action.inputs.forEach((input, k) => {
    params[entityParams[k]] = param(style.idType, style.entityParamAbout(input.entity, input.role), true);
  });
  action.literals.forEach((l, k) => {
    params[literalParams[k]] = param(l.type, `The ${l.words.join(' ')}.`, l.required);
  });
  const spec = {
    name: api.name,
    description: `${action.about}.`,
    query_parameters: params,
    output_parameters: api.outputs.outputs,
  };
  return { api, spec };
}

/** The world's catalog in one style. */
export function renderWorld(style: Style): World {
  const made = [
    ...ENTITIES.filter((e) => e.lookup).map((e) => lookupApi(style, e)),
    ...ACTIONS.map((a) => actionApi(style, a)),
  ];
  const spec = made.map((m) => m.spec);
  return { style, apis: made.map((m) => m.api), spec, catalog: parseCatalog(spec) };
}
