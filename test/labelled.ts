/**
 * A small labelled data set of the kind a researcher brings, made in the test: string-form sequences, no
 * NESTFUL `set`, the catalog given by --catalog (the executable one), mistake kinds as `kinds` lists.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { corrupt, GOLD } from './helpers.ts';

export const LABELLED_CATALOG = 'data/nestful/executable-spec.json';

const MISTAKES = [
  {
    id: 'typo',
    kinds: ['param_name'],
    edits: [['var1 = SkyScrapperSearchAirport(query=', 'var1 = SkyScrapperSearchAirport(qery=']],
  },
  {
    id: 'api',
    kinds: ['api_name'],
    edits: [['var4 = TripadvisorSearchLocation(', 'var4 = TripadvisorSearchLocations(']],
  },
  { id: 'label', kinds: ['ref_label'], edits: [['geoId="$var4.geoId$"', 'geoId="$var7.geoId$"']] },
  {
    id: 'both',
    kinds: ['param_name', 'ref_label'],
    edits: [
      ['checkIn="2024-08-15", checkOut', 'checkin="2024-08-15", checkOut'],
      ['geoId="$var4.geoId$"', 'geoId="$var9.geoId$"'],
    ],
  },
] as const;

/** The records: `{id, kinds, gold, sequence}` with the gold of EXAMPLES and one or two mistakes each. */
export function labelledRecords(): { id: string; kinds: string[]; gold: string; sequence: string }[] {
  return MISTAKES.map((m) => ({
    id: m.id,
    kinds: [...m.kinds],
    gold: GOLD,
    sequence: m.edits.reduce((text, [from, to]) => corrupt(text, from, to), GOLD),
  }));
}

/** Writes the records as `mine.jsonl` into `dir`; returns its path. */
export function writeLabelled(dir: string, name = 'mine.jsonl'): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    labelledRecords()
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n',
  );
  return path;
}

/**
 * The records and one more whose repair supplies data flow (a lost `originSkyId` linked back): the others only
 * rename and relabel. Written as `name` into `dir`; returns its path.
 */
export function writeLabelledWithFlow(dir: string, name: string): string {
  const lost = {
    id: 'lost',
    kinds: ['missing_param'],
    gold: GOLD,
    sequence: corrupt(GOLD, 'originSkyId="$var1.skyId$", ', ''),
  };
  const path = join(dir, name);
  writeFileSync(path, [...labelledRecords(), lost].map((r) => JSON.stringify(r)).join('\n') + '\n');
  return path;
}
