/**
 * The string form of a sequence, one call per line:
 *
 *     var1 = SkyScrapperSearchAirport(query="New York")
 *     var2 = SkyScrapperFlightSearch(originSkyId="$var1.skyId$", adults=2, cabinClass="economy")
 *     var_result(answer="$var2.price$")
 *
 * Values are JSON literals (strings may hold commas, parentheses and `\"`). A line without `label =` is an
 * unlabelled step; blank lines and `#` comments are skipped. Names that are not plain tokens are written as
 * JSON strings (`"Exchange Rate"=1`), so any sequence can be written and read back unchanged.
 */
import type { Json, Sequence, Step } from '../model/types.ts';
import { InputError } from '../model/errors.ts';
import { MAX_NAME_LENGTH, kindOf, setOwn } from './json.ts';
import { ScanError, formatValue, readString, readValue, skipSpace } from './literal.ts';

/** A bare name: API names like `Buses.FindBus` or `Real-Time_Search`, labels, parameter names. */
const BARE = /[^\s=(),"'#[\]{}]+/y;
const BARE_FULL = /^[^\s=(),"'#[\]{}]+$/;

/** Reads a bare or quoted name at `pos`. */
function readName(
  text: string,
  pos: number,
  what: string,
  allowEmpty = false,
): { name: string; end: number } {
  let name: string;
  let end: number;
  if (text[pos] === '"' || text[pos] === "'") {
    ({ value: name, end } = readString(text, pos));
  } else {
    BARE.lastIndex = pos;
    const match = BARE.exec(text);
    if (!match) {
      const found = pos >= text.length ? 'end of line' : `'${text[pos]}'`;
      throw new ScanError(pos, `expected ${what}, found ${found}`);
    }
    name = match[0];
    end = pos + name.length;
  }
  if (name === '' && !allowEmpty) throw new ScanError(pos, `expected ${what}, found an empty name`);
  if (name.length > MAX_NAME_LENGTH)
    throw new ScanError(pos, `${what} longer than ${MAX_NAME_LENGTH} characters`);
  return { name, end };
}

/** True when only a comment (or nothing) is left. */
function atLineEnd(text: string, pos: number): boolean {
  const i = skipSpace(text, pos);
  return i >= text.length || text[i] === '#';
}

/** Parses one non-blank line into a step. */
function parseLine(text: string): Step {
  let pos = skipSpace(text, 0);
  const first = readName(text, pos, 'a label or an API name');
  pos = skipSpace(text, first.end);
  let label: string | undefined;
  let name = first.name;
  if (text[pos] === '=') {
    label = first.name;
    const api = readName(text, skipSpace(text, pos + 1), 'an API name');
    name = api.name;
    pos = skipSpace(text, api.end);
  }
  if (text[pos] !== '(')
    throw new ScanError(pos, label === undefined ? "expected '=' or '('" : "expected '('");
  pos = skipSpace(text, pos + 1);
  const args: Record<string, Json> = {};
  const seen = new Set<string>();
  while (text[pos] !== ')') {
    if (pos >= text.length) throw new ScanError(pos, "expected ')', found end of line");
    const key = readName(text, pos, 'a parameter name', true);
    if (seen.has(key.name)) throw new ScanError(pos, `parameter ${key.name} given twice`);
    seen.add(key.name);
    pos = skipSpace(text, key.end);
    if (text[pos] !== '=') throw new ScanError(pos, `expected '=' after parameter ${key.name}`);
    const value = readValue(text, skipSpace(text, pos + 1));
    setOwn(args, key.name, value.value);
    pos = skipSpace(text, value.end);
    if (text[pos] === ',') pos = skipSpace(text, pos + 1);
    else if (text[pos] !== ')') throw new ScanError(pos, "expected ',' or ')'");
  }
  if (!atLineEnd(text, pos + 1))
    throw new ScanError(skipSpace(text, pos + 1), 'unexpected text after the call');
  return label === undefined ? { name, arguments: args } : { name, arguments: args, label };
}

/** Parses the string form. Errors name the line and column (both 1-based). */
export function parseStringForm(text: string): Sequence {
  if (typeof text !== 'string') throw new InputError('input', `expected text, received ${kindOf(text)}`);
  const steps: Step[] = [];
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r?\n/);
  lines.forEach((line, i) => {
    if (atLineEnd(line, 0)) return;
    try {
      steps.push(parseLine(line));
    } catch (error) {
      if (!(error instanceof ScanError)) throw error;
      throw new InputError(`line ${i + 1}, column ${error.offset + 1}`, error.message);
    }
  });
  return steps;
}

function formatName(name: string): string {
  return BARE_FULL.test(name) ? name : JSON.stringify(name);
}

/** Writes one step: `var1 = Api(p="v", n=3)`. */
export function formatStep(step: Step): string {
  const args = Object.entries(step.arguments)
    .map(([k, v]) => `${formatName(k)}=${formatValue(v)}`)
    .join(', ');
  const call = `${formatName(step.name)}(${args})`;
  return step.label === undefined ? call : `${formatName(step.label)} = ${call}`;
}

/** Writes a sequence in the string form, one call per line (no trailing newline). */
export function formatStringForm(seq: Sequence): string {
  return seq.map(formatStep).join('\n');
}
