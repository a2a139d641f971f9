/** Literal values against declared parameter types and enums. */
import type { Json, ParamSpec, ValueType } from '../model/types.ts';

/** Why a literal does not fit a parameter, or null when it does. */
export function literalMismatch(
  value: Json,
  param: ParamSpec,
): { tag: 'type_mismatch' | 'enum_mismatch'; message: string } | null {
  if (!fitsType(value, param.type)) {
    const article = /^[aeiou]/.test(param.type) ? 'an' : 'a';
    return { tag: 'type_mismatch', message: `${describe(value)} is not ${article} ${param.type}` };
  }
  if (param.enum && param.enum.length > 0 && !param.enum.some((e) => sameLiteral(e, value))) {
    const shown = param.enum
      .slice(0, 8)
      .map((e) => JSON.stringify(e))
      .join(', ');
    return {
      tag: 'enum_mismatch',
      message: `${JSON.stringify(value)} is not one of ${shown}${param.enum.length > 8 ? ', …' : ''}`,
    };
  }
  return null;
}

/** Literal type check. Numeric strings fit numbers (catalogs and agents often quote numbers). */
export function fitsType(value: Json, type: ValueType): boolean {
  switch (type) {
    case 'any':
      return true;
    case 'string':
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
    case 'number':
      return (
        typeof value === 'number' ||
        (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
      );
    case 'integer':
      return (
        (typeof value === 'number' && Number.isInteger(value)) ||
        (typeof value === 'string' && /^-?\d+$/.test(value.trim()))
      );
    case 'boolean':
      return typeof value === 'boolean' || value === 'true' || value === 'false';
    case 'array':
      return Array.isArray(value) || typeof value === 'string';
    case 'object':
      return (
        (value !== null && typeof value === 'object' && !Array.isArray(value)) || typeof value === 'string'
      );
  }
}

/**
 * Whether an output of type `from` can possibly feed an input of type `to`: looser than `typesCompatible`,
 * as plans do write lists and objects into text inputs. A number never comes from text, a list never from
 * a number: those cannot match.
 */
export function typesCanMatch(from: ValueType, to: ValueType): boolean {
  if (from === 'any' || to === 'any' || from === to || to === 'string') return true;
  if (to === 'number' || to === 'integer') return from === 'number' || from === 'integer';
  return false;
}

/** Whether an output of type `from` can feed an input of type `to`. */
export function typesCompatible(from: ValueType, to: ValueType): boolean {
  if (from === 'any' || to === 'any' || from === to) return true;
  if (to === 'string') return from !== 'object' && from !== 'array';
  if (to === 'number') return from === 'integer';
  if (to === 'integer') return from === 'number';
  return false;
}

function sameLiteral(a: Json, b: Json): boolean {
  return a === b || String(a).toLowerCase() === String(b).toLowerCase();
}

function describe(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return JSON.stringify(value);
}
