import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../src/read/catalog.ts';
import { judgeWithCatalog, strangerCalls, unsupportedWirings } from '../src/score/index.ts';
import { planWords } from '../src/catalog/evidence.ts';
import type { Sequence } from '../src/model/types.ts';

const out = (type: string, description: string) => ({ type, description });
const inp = (type: string, description: string, required = true) => ({ type, description, required });

const catalog = parseCatalog([
  {
    name: 'find_patient',
    description: 'Find a patient by name.',
    query_parameters: { name: inp('string', 'The full name of the person.') },
    output_parameters: {
      patient_id: out('string', 'The patient id.'),
      status: out('string', 'Record status.'),
    },
  },
  {
    name: 'getECGSample',
    description: 'An ECG sample of a patient.',
    query_parameters: {
      patient_id: inp('string', 'The patient id.'),
      audience: inp('string', 'Who reads the report.', false),
      lead_count: inp('integer', 'How many leads.', false),
    },
    output_parameters: { ecg_data: out('string', 'The ECG trace.') },
  },
  {
    name: 'get_tooth_fracture',
    description: 'Fractures of a tooth.',
    query_parameters: { tooth_number: inp('integer', 'Which tooth.') },
    output_parameters: {
      pain_level: out('integer', 'How much the tooth hurts.'),
      status: out('string', 'Fracture status.'),
      electrode_count: out('integer', 'Sensors used.'),
    },
  },
  {
    name: 'get_patient_history',
    description: 'History of a patient.',
    query_parameters: { patient_id: inp('string', 'The patient id.') },
    output_parameters: { visits: out('integer', 'Visits so far.') },
  },
]);

const input: Sequence = [
  { name: 'find_patient', arguments: { name: 'Ana Silva' }, label: 'var1' },
  { name: 'getECGSample', arguments: {}, label: 'var2' },
];
const gold: Sequence = [
  { name: 'find_patient', arguments: { name: 'Ana Silva' }, label: 'var1' },
  { name: 'getECGSample', arguments: { patient_id: '$var1.patient_id$' }, label: 'var2' },
];

describe('stranger calls and unsupported wirings', () => {
  it('an inserted tooth-fracture lookup feeding patient_id from pain_level is one stranger and one unsupported wiring', () => {
    const repaired: Sequence = [
      { name: 'find_patient', arguments: { name: 'Ana Silva' }, label: 'var1' },
      { name: 'get_tooth_fracture', arguments: { tooth_number: 3 }, label: 'var3' },
      { name: 'getECGSample', arguments: { patient_id: '$var3.pain_level$' }, label: 'var2' },
    ];
    const judged = judgeWithCatalog({ input, gold, repaired, catalog });
    expect(judged.strangerCalls).toEqual([{ step: 1, api: 'get_tooth_fracture' }]);
    expect(judged.unsupportedWirings).toEqual([
      { step: 2, param: 'patient_id', reference: '$var3.pain_level$' },
    ]);
  });

  it("the gold's own wiring, a wiring by name and a related insertion are not counted", () => {
    expect(judgeWithCatalog({ input, gold, repaired: gold, catalog })).toEqual({
      strangerCalls: [],
      unsupportedWirings: [],
    });
    // Not the gold's (the gold asks), but the names agree: supported.
    const asked: Sequence = [...input.slice(0, 1), { ...input[1], arguments: { patient_id: '$ask1$' } }];
    const wired: Sequence = [
      ...input.slice(0, 1),
      { name: 'get_patient_history', arguments: { patient_id: '$var1.patient_id$' }, label: 'var3' },
      { ...input[1], arguments: { patient_id: '$var1.patient_id$' } },
    ];
    expect(unsupportedWirings(input, asked, wired, catalog)).toEqual([]);
    // get_patient_history shares `patient` with the plan: inserted, but no stranger.
    expect(strangerCalls(input, asked, wired, catalog)).toEqual([]);
    expect(judgeWithCatalog({ input, gold, repaired: null, catalog }).strangerCalls).toEqual([]);
  });

  it('a call the gold makes is restored, not a stranger, however unrelated its name', () => {
    const flat: Sequence = [{ name: 'getECGSample', arguments: { patient_id: 'P-1' }, label: 'var1' }];
    const both: Sequence = [
      ...flat,
      { name: 'get_tooth_fracture', arguments: { tooth_number: 3 }, label: 'var2' },
    ];
    expect(strangerCalls(flat, both, both, catalog)).toEqual([]);
    expect(strangerCalls(flat, flat, both, catalog)).toEqual([{ step: 1, api: 'get_tooth_fracture' }]);
  });

  it('an inserted call named after the parameter it feeds is related; one named after nothing the plan holds is a stranger', () => {
    const alone: Sequence = [{ name: 'getECGSample', arguments: {}, label: 'var2' }];
    const lookup = (api: string, field: string): Sequence => [
      { name: api, arguments: {}, label: 'var1' },
      { name: 'getECGSample', arguments: { patient_id: `$var1.${field}$` }, label: 'var2' },
    ];
    // find_patient shares no word with `getECGSample`, but `patient` with the `patient_id` it feeds.
    expect(strangerCalls(alone, alone, lookup('find_patient', 'patient_id'), catalog)).toEqual([]);
    expect(strangerCalls(alone, alone, lookup('get_tooth_fracture', 'pain_level'), catalog)).toEqual([
      { step: 0, api: 'get_tooth_fracture' },
    ]);
    // Fed by nothing (the answer reads it, or no one does): the plan's words alone decide.
    const unread: Sequence = [{ name: 'find_patient', arguments: {}, label: 'var1' }, ...alone];
    expect(strangerCalls(alone, alone, unread, catalog)).toEqual([{ step: 0, api: 'find_patient' }]);
  });

  it('description or declared-type evidence supports a wiring; a shared `string` type does not', () => {
    const made = (arg: Record<string, string>): Sequence => [
      { name: 'get_tooth_fracture', arguments: { tooth_number: 3 }, label: 'var1' },
      { name: 'getECGSample', arguments: { patient_id: 'P-1', ...arg }, label: 'var2' },
    ];
    const plain = made({});
    // integer → integer: a declared type more telling than string.
    expect(unsupportedWirings(plain, plain, made({ lead_count: '$var1.electrode_count$' }), catalog)).toEqual(
      [],
    );
    // string → string with nothing else in common (`audience="$var1.status$"`).
    expect(unsupportedWirings(plain, plain, made({ audience: '$var1.status$' }), catalog)).toEqual([
      { step: 1, param: 'audience', reference: '$var1.status$' },
    ]);
  });

  it('a field the input itself wires under a dangling label is not a wiring the repair made', () => {
    // The input reads `status` into `audience` from a step it lost; the repair puts one back.
    const lost: Sequence = [
      { name: 'getECGSample', arguments: { patient_id: 'P-1', audience: '$var1.status$' }, label: 'var2' },
    ];
    const back: Sequence = [
      { name: 'get_tooth_fracture', arguments: { tooth_number: 3 }, label: 'var1' },
      ...lost,
    ];
    const other: Sequence = [
      back[0],
      {
        ...lost[0],
        arguments: { patient_id: 'P-1', audience: '$var1.status$', lead_count: '$var1.status$' },
      },
    ];
    expect(unsupportedWirings(lost, lost, back, catalog)).toEqual([]);
    // Made by the repair: counted (the field is the input's, the parameter is not).
    expect(unsupportedWirings(lost, lost, other, catalog)).toEqual([
      { step: 1, param: 'lead_count', reference: '$var1.status$' },
    ]);
  });

  it("the plan's words are its API names, argument names and answer keys, not the answer's name", () => {
    const words = planWords(
      [...gold, { name: 'var_result', arguments: { heart_trace: '$var2.ecg_data$' } }],
      (name) => catalog.apis.find((a) => a.name === name),
      (i) => i === 2,
    );
    expect([...words].sort()).toEqual(['ecg', 'heart', 'patient', 'sample', 'trace']);
  });
});
