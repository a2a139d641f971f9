/**
 * The sweep's breakdowns: restoration per mistake kind (base and the best settings, each rate with its
 * interval), and the records that flip between the base and each setting (restored by one, not the
 * other), which is what a difference of a few records is made of.
 */
import { pct, table } from '../bench/markdown.ts';
import type { Interval } from './bootstrap.ts';
import type { GroupScore, SettingResult } from './evaluate.ts';
import { formatSetting } from './settings.ts';
import type { SweepResult } from './sweep.ts';

/** `68.0–77.7%`. */
export function interval(ci: Interval): string {
  return Number.isFinite(ci.lo) ? `${(100 * ci.lo).toFixed(1)}–${(100 * ci.hi).toFixed(1)}%` : '–';
}

/** `73.0% (68.0–77.7%)`: a rate with its interval, for breakdown tables. */
export function rateCell(g: GroupScore, rate: 'restoration' | 'executable' = 'restoration'): string {
  return rate === 'restoration'
    ? `${pct(g.restored, g.n)} (${interval(g.restorationCi)})`
    : `${pct(g.executable, g.n)} (${interval(g.executableCi)})`;
}

/** Settings shown beside the base in the per-kind table. */
const KIND_COLUMNS = 4;
/** Settings whose flips are listed, and ids listed per direction. */
const FLIP_ROWS = 10;
const FLIP_IDS = 8;

/** Restoration per kind group: the base and the best few settings. */
export function kindsSection(result: SweepResult, baseName: string): string {
  const kinds = Object.keys(result.baseline.byKind);
  if (kinds.length <= 1 && kinds[0] === '(none)') return '';
  const shown = result.rows.slice(0, KIND_COLUMNS);
  const head = ['kind', 'n', `${baseName}`, ...shown.map((r, i) => `#${i + 1} ${formatSetting(r.setting)}`)];
  const rows = [...kinds, 'all'].map((k) => {
    const of = (r: SettingResult) => (k === 'all' ? r : r.byKind[k]);
    return [k, of(result.baseline).n, rateCell(of(result.baseline)), ...shown.map((r) => rateCell(of(r)))];
  });
  return [
    '## Restoration per mistake kind',
    '',
    `The base and the ${shown.length} best settings; each rate with its 95% bootstrap interval.`,
    '',
    table(head, rows),
    '',
  ].join('\n');
}

export interface Flips {
  /** Restored by the setting, not by the base. */
  readonly gained: readonly string[];
  /** Restored by the base, not by the setting. */
  readonly lost: readonly string[];
}

export function flips(setting: SettingResult, base: SettingResult): Flips {
  const gained: string[] = [];
  const lost: string[] = [];
  setting.records.forEach((r, i) => {
    const b = base.records[i];
    if (r.restored && !b.restored) gained.push(r.id);
    if (!r.restored && b.restored) lost.push(r.id);
  });
  return { gained, lost };
}

function ids(list: readonly string[]): string {
  if (list.length === 0) return '–';
  const shown = list.slice(0, FLIP_IDS).map((id) => `\`${id}\``);
  return list.length > FLIP_IDS ? `${shown.join(', ')} +${list.length - FLIP_IDS} more` : shown.join(', ');
}

/** Per setting (best first): how many records it gains and loses against the base, and which. */
export function flipsSection(result: SweepResult): string {
  const rows = result.rows.slice(0, FLIP_ROWS).map((r, i) => {
    const f = flips(r, result.baseline);
    return [
      String(i + 1),
      formatSetting(r.setting),
      f.gained.length,
      f.lost.length,
      ids(f.gained),
      ids(f.lost),
    ];
  });
  if (rows.length === 0) return '';
  return [
    '## Records that flip against the base',
    '',
    'Restored by the setting and not by the base (gained), or the reverse (lost); the JSON output (`--json`)',
    'has every record under every setting.',
    '',
    table(['rank', 'setting', 'gained', 'lost', 'gained records', 'lost records'], rows),
    '',
  ].join('\n');
}
