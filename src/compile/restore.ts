/**
 * Deleted steps come back. A label that steps reference but no step defines is evidence of a deleted step
 * when a catalog API can stand for it: one that outputs every field referenced from the label, or, when
 * only its whole output is used, one whose name says what the output is called (`mortgage_payment:
 * $var1$` -> calculate_mortgage_payment). That API is offered under that very label, just before the
 * label's first consumer (`restoreStep`, plus dissimilarity for how little its name matches the names the
 * output is used under), its inputs wired from what the sequence has or asked. The references keep their
 * label and field; nothing has to be re-pointed.
 */
import type { ApiSpec, PathSegment } from '../model/types.ts';
import { leafOf } from '../catalog/catalog-index.ts';
import { genericName, namesAnother, tieDistance } from '../catalog/names.ts';
import { apisNaming, apisOutputting, nameCoverage, nameShare } from '../catalog/name-terms.ts';
import { nameTerms } from '../catalog/text.ts';
import { commonCount, commonness } from '../catalog/evidence.ts';
import { normalisePath } from '../read/references.ts';
import { apiProvides, outputField } from '../validate/outputs.ts';
import { contextMatch } from '../catalog/context-match.ts';
import { perCompile, type CompileContext } from './context.ts';
import { apiChoice, labelChoice, labelRows, newCall } from './calls.ts';
import { NO_FEATURES, plus, type Features } from '../model/features.ts';
import { perObject } from '../model/memo.ts';
import { lackingInputs, producers, requiredInputs } from './producers.ts';
import { numberedPlace, slippedLabel } from './numbering.ts';
import { carriedCharge, carriedValues, templates, inFullLookup } from './carried.ts';
import type { StandIn, Uses } from './plan.ts';

/** Where a restored or rerun call sits: this far before its first reader (an order, not a price). */
export const BEFORE_READER = 0.3;

export function usesOf(ctx: CompileContext, label: string): Uses {
  const paths = new Map<string, readonly PathSegment[]>();
  const names = new Set<string>();
  const feeds: { param: string; path: string }[] = [];
  const readers = new Set<string>();
  let first = -1;
  ctx.refs.forEach((sites, i) => {
    const answer = ctx.isAnswer(i);
    for (const site of sites) {
      if (site.ref.label !== label) continue;
      if (first === -1) first = i;
      if (!answer) readers.add(ctx.steps[i].name);
      const whole = site.whole && site.at.length === 0;
      if (site.ref.path.length > 0) {
        paths.set(normalisePath(site.ref.path), site.ref.path);
        if (whole && !answer) feeds.push({ param: site.param, path: normalisePath(site.ref.path) });
      } else if (whole) names.add(site.param);
    }
  });
  return { paths: [...paths.values()], names: [...names], feeds, first, readers: [...readers] };
}

/**
 * The words a referenced field is known by, and the shorter forms it may stand for: its words, and their
 * endings of two words or more (`end_the_unique_identifier_of_the_place` stands for
 * `the_unique_identifier_of_the_place`; `theUniqueIdentifierOfTheAccount` reads as its snake-case twin).
 */
function readings(path: readonly PathSegment[]): string[] {
  const words = nameTerms(leafOf(normalisePath(path)));
  const out: string[] = [];
  for (let k = words.length; k >= Math.min(2, words.length); k--)
    out.push(words.slice(words.length - k).join(' '));
  return out;
}

/**
 * The API outputs the path, or, for a top-level field, a top-level field that reads as it (see `readings`):
 * a nested path (`location.name`) must match as written.
 */
function nearlyProvides(api: ApiSpec, path: readonly PathSegment[]): boolean {
  if (apiProvides(api, path) === 'yes') return true;
  if (path.length !== 1) return false;
  const wanted = new Set(readings(path));
  return (api.outputs ?? []).some((f) => !/[.[]/.test(f.path) && wanted.has(nameTerms(f.path).join(' ')));
}

/** Catalog APIs that output the path or a field that reads as it, in catalog order. */
function nearProducers(ctx: CompileContext, path: readonly PathSegment[]): ApiSpec[] {
  const exact = ctx.index.producersOf(leafOf(normalisePath(path))).map((p) => p.api);
  const near = path.length === 1 ? readings(path).flatMap((r) => apisOutputting(ctx.catalog, r)) : [];
  return [...new Set([...exact, ...near])].filter((api) => nearlyProvides(api, path));
}

/** The field is fed whole to a parameter whose name says it is another thing's (see `namesAnother`). */
function contradicted(ctx: CompileContext, uses: Uses, path: readonly PathSegment[]): boolean {
  const written = normalisePath(path);
  const leaf = leafOf(written);
  return uses.feeds.some(
    ({ param, path: fed }) =>
      fed === written && namesAnother(param, leaf) && !ctx.mappedFrom(param).some((m) => m.from === leaf),
  );
}

/** How many inputs an API requires. */

/** Catalog APIs that can stand for the deleted step: best evidence, then fewest required inputs. */
export function standIns(ctx: CompileContext, uses: Uses): StandIn[] {
  let candidates: ApiSpec[] = [];
  const add = (api: ApiSpec) => {
    if (!candidates.includes(api) && (!ctx.allowed || ctx.allowed(api))) candidates.push(api);
  };
  // A generic field (`$var1.result$`) says nothing of which API it was; nor does one that names another
  // thing's value than the parameter it feeds (`stock_id = $var1.account_id$`, no mapping between them):
  // the field is the likelier mistake, and the API that produces what it feeds stands for the step.
  const paths = uses.paths.filter(
    (p) => !(p.length === 1 && genericName(leafOf(normalisePath(p)))) && !contradicted(ctx, uses, p),
  );
  if (paths.length > 0) {
    // The APIs that output the most referenced fields (every one, or at least half: a misspelt field
    // among them is fixed on the restored call like on any other).
    const provided = new Map<ApiSpec, number>();
    for (const path of paths) {
      for (const api of nearProducers(ctx, path)) {
        if (!provided.has(api)) provided.set(api, paths.filter((p) => nearlyProvides(api, p)).length);
      }
    }
    const most = Math.max(0, ...provided.values());
    if (most >= ctx.evidence.restoreFieldShare * paths.length)
      for (const [api, n] of provided) if (n === most) add(api);
  }
  // No API outputs the fields as written (made up, or generic): the APIs that produce what they feed (by
  // name, mapping or in context: the account identifier for an `account`) stand for the step, the fields
  // then fixed on the restored call.
  // (Only where no name of its output says which API it was.)
  if (candidates.length === 0 && uses.names.length === 0)
    for (const { param } of uses.feeds) producers(ctx, param).forEach(add);
  // Otherwise the names its whole output is used under say which API it was (its fields, misspelt or
  // made up, are then fixed on the restored call).
  // The same when the APIs that output the fields are neither named by it nor of the sequence's family (a
  // field written wrong may be one an unrelated API outputs): both kinds are offered, the fields fixed on
  // the restored call where needed.
  const family = (api: ApiSpec) => planFamily(ctx, api);
  const unnamed =
    candidates.length > 0 &&
    uses.names.length > 0 &&
    candidates.every(
      (api) =>
        Math.max(...uses.names.map((n) => nameCoverage(n, api))) === 0 &&
        family(api) < ctx.evidence.strangerFamily,
    );
  const byName = candidates.length === 0 || unnamed;
  // A name that is an output's own (`total_sales = $var1$`: analyze_sales_data outputs `total_sales`) names
  // the API that outputs it, a quarter more than its words alone (never whole: a key is no label).
  const spelt = (name: string) =>
    genericName(name) ? [] : apisOutputting(ctx.catalog, nameTerms(name).join(' '));
  const keyNamed = () =>
    uses.names.flatMap((name) => [
      ...nameTerms(name).flatMap((t) => apisNaming(ctx.catalog, t)),
      ...spelt(name),
    ]);
  if (byName) keyNamed().forEach(add);
  else {
    // In a large catalog some API that outputs a field as common as `id` is nearly always of the plan's
    // family or named a little by the key: the APIs the key names (`keyNamesLostCall`, every word by
    // default) are offered as well where none of those outputting the fields is named so (the key says
    // which API the step was; the field read may be the mistake, fixed on the restored call).
    const cover = ctx.evidence.keyNamesLostCall;
    const named = (api: ApiSpec) => uses.names.some((n) => nameCoverage(n, api) >= cover);
    if (!candidates.some(named)) keyNamed().filter(named).forEach(add);
  }
  // A call is seldom fed by a call of its own API (a sales tax is not computed on a sales tax): such a
  // stand-in goes when another can be the step.
  const ownReader = (api: ApiSpec) => uses.readers.length > 0 && uses.readers.every((r) => r === api.name);
  if (candidates.some((api) => !ownReader(api))) candidates = candidates.filter((api) => !ownReader(api));
  // Nor did the step take the very value it was read for: an API that needs a `username_or_id_or_url` to
  // output the username that feeds one is asking for its consumer's value; it goes when another, named as
  // well by the output's names, can be the step. Only a field the API outputs says so: a made-up field
  // (`$var1.location.q$` into a weather lookup's `q`) was read from whichever API the step was.
  const circular = (api: ApiSpec) =>
    uses.feeds.some(
      ({ param, path }) =>
        outputField(api, path) !== undefined && api.params.some((q) => q.required && q.name === param),
    );
  const covered = (api: ApiSpec) => Math.max(0, ...uses.names.map((n) => nameCoverage(n, api)));
  const circularCover = Math.max(0, ...candidates.filter(circular).map(covered));
  if (candidates.some((api) => !circular(api) && covered(api) >= circularCover))
    candidates = candidates.filter((api) => !circular(api));
  // How well the API suits the uses. The names its whole output goes under: the share its name covers.
  // The parameters its fields feed: named like the field, or standing for it in context (`airport` in
  // `origin_airport_id` for search_airport); where some API has that support, only those with the most
  // stand for the deleted step.
  const named = (api: ApiSpec) =>
    uses.names.length === 0
      ? 1
      : Math.max(
          ...uses.names.map((n) =>
            Math.min(1, nameCoverage(n, api) + (spelt(n).includes(api) ? ctx.evidence.keyOutputBonus : 0)),
          ),
        );
  const support = perObject(
    (api: ApiSpec) =>
      uses.feeds.filter(({ param, path }) => {
        const field = outputField(api, path);
        return (
          leafOf(path) === param || (field !== undefined && contextMatch(param, api, field) !== undefined)
        );
      }).length,
  );
  const best = Math.max(0, ...candidates.map(support));
  const evidence = perObject(named);
  const share = (api: ApiSpec) => Math.max(0, ...uses.names.map((n) => nameShare(n, api)));
  // Named by its uses alone, the API is one of those whose name covers the most of them: a name that
  // covers less (`Instagram_Posts_Reels` for `reddit_posts`) is no evidence of that step.
  const top = byName
    ? Math.max(
        ctx.evidence.minKeyCoverage,
        ...candidates.filter((api) => support(api) === best).map(evidence),
      )
    : 0;
  // Where the key names some of them, one it names not at all is no evidence of the step.
  const bestNamed =
    uses.names.length === 0
      ? 0
      : Math.max(0, ...candidates.filter((api) => support(api) === best).map(evidence));
  const namedOk = (api: ApiSpec) => bestNamed < ctx.evidence.minKeyCoverage || evidence(api) > 0;
  return candidates
    .filter((api) => (!byName || evidence(api) >= top) && support(api) === best && namedOk(api))
    .map((api) => ({ api, evidence: evidence(api), family: family(api), share: share(api) }))
    .sort(
      (a, b) =>
        b.evidence - a.evidence ||
        requiredInputs(a.api) - requiredInputs(b.api) ||
        b.family - a.family ||
        (a.api.name < b.api.name ? -1 : a.api.name > b.api.name ? 1 : 0),
    );
}

/** How alike an API's name is to the closest of the plan's calls (1: one of them); once per compile. */
export const planFamily = perCompile((ctx, api: ApiSpec): number =>
  Math.max(0, ...ctx.steps.map((s) => 1 - tieDistance(s.name, api.name))),
);

/**
 * The evidence of every deleted step: for each dangling label with uses, the catalog APIs that can stand for
 * it, best first (`ctx.deleted`). Read before the input's calls are laid out: a step of another API may
 * take such a label only where the label's uses fit it (see `labelChoices`).
 */
export function deletedSteps(ctx: CompileContext, orphans: readonly string[]): void {
  if (ctx.options.allowInsert === false) return;
  for (const label of orphans) {
    const uses = usesOf(ctx, label);
    if (uses.first === -1 || (uses.paths.length === 0 && uses.names.length === 0)) continue;
    const apis = standIns(ctx, uses);
    if (apis.length > 0) ctx.deleted.set(label, { uses, standIns: apis });
  }
}

/**
 * `insertUnrelated` of a restored API: 0 when it shares a content word with the plan or with what its uses
 * read (a field, a name); else how common the lost call's reads are (`lostCommonness`: the one API that
 * outputs a rare field is evidence, one of the many that output `album` a guess). A name written like the
 * plan's calls is no kinship (`get_player` among `get_grades` calls shares no word with them). A whole output
 * read under names alone: 0 (its names chose the API).
 */
function strangerWeight(ctx: CompileContext, api: ApiSpec, uses: Uses, common: number): number {
  const leaves = uses.paths.map((p) => leafOf(normalisePath(p)));
  if (leaves.length === 0) return 0;
  if ([...leaves, ...uses.names].some((n) => ctx.relatedTo(api, n))) return 0;
  return common;
}

/**
 * How common the fields a lost step is read through are in the catalog, the rarest counting (once per deleted
 * label, whichever API stands in). A field no API outputs as written is as common as the fields that read as
 * it (`headlines` for a `headline`); one that nothing reads as either (made up: `$var10.gwpa$`) says nothing
 * of which call was lost: its stand-ins are the producers of what it feeds (`message`), and a guess among them
 * is as common.
 */
function lostCommonness(ctx: CompileContext, uses: Uses): number {
  const read = uses.paths
    .map((path) => {
      const leaf = leafOf(normalisePath(path));
      return ctx.index.producersOf(leaf).length > 0
        ? commonness(ctx.index, leaf)
        : commonCount(ctx.index, nearProducers(ctx, path).length);
    })
    .filter((c) => c > 0);
  if (read.length > 0) return Math.min(...read);
  const fed = uses.feeds.map((feed) => commonness(ctx.index, feed.param));
  return fed.length > 0 ? Math.min(...fed) : 0;
}

/** Restored-call candidates for every dangling label with evidence; records those labels as restorable. */
export function restoredCalls(ctx: CompileContext, orphans: readonly string[]): void {
  if (ctx.options.allowInsert === false) return;
  // The APIs of steps whose label slipped: the same for every deleted label, found once.
  const slipped = new Set(ctx.steps.filter((_, i) => slippedLabel(ctx, i)).map((s) => s.name));
  const inFull = inFullLookup(ctx);
  for (const label of orphans) {
    const deleted = ctx.deleted.get(label);
    if (!deleted) continue;
    const { uses } = deleted;
    if (uses.paths.length > 0) ctx.restorable.add(label);
    const fields = uses.paths.map((p) => `${label}.${normalisePath(p)}`);
    const need = fields.length > 0 ? fields.join(', ') : `${label} as ${uses.names.join(', ')}`;
    const consumers = ctx.steps.flatMap((step, i) =>
      ctx.refs[i].some((site) => site.ref.label === label) ? [{ step, i }] : [],
    );
    // The deleted step had its inputs whichever API it was: an API its uses name less well is not the
    // likelier for needing fewer of them. It pays `slotFill` for each required input it lacks against the
    // best-named stand-in, so that the names, not the number of questions, tell them apart.
    // The restored call's inputs its consumers read back from its output whole, under the same name.
    const readBack = (param: string) =>
      consumers.some(({ i }) =>
        ctx.refs[i].some(
          (site) =>
            site.whole &&
            site.ref.label === label &&
            site.ref.path.length === 1 &&
            site.ref.path[0] === param &&
            site.param === param,
        ),
      );
    // Each stand-in's `insertUnrelated`, worked out once (kinship, habit and price all read it); one that
    // pays none shares a content word with the plan or with what the uses read.
    const common = lostCommonness(ctx, uses);
    const strangeness = new Map(
      deleted.standIns.map((stand) => [stand, strangerWeight(ctx, stand.api, uses, common)]),
    );
    const isRelated = (stand: StandIn) => !strangeness.get(stand);
    if (!deleted.standIns.some(isRelated)) ctx.strangeDeleted.add(label);
    // Of two stand-ins its uses name alike, one related to the plan (sharing a content word with it or with
    // what the uses read) is the closer: a stranger is not the likelier for needing fewer inputs, nor for a
    // name written like the plan's calls (`calculate_route` for a lost `distance` among `calculate_*` calls).
    const kin = (stand: StandIn) => (isRelated(stand) ? 1 : 0);
    // The plan's habit is read among the stand-ins that share a content word with it or with what the uses
    // read, where there are any: a stranger whose name starts like the plan's calls (`get_player` among
    // `get_grades` calls) makes no API named after the value (`find_student_id`) foreign.
    const related = deleted.standIns.filter(isRelated);
    const habit = ctx.outOfHabit((related.length > 0 ? related : deleted.standIns).map((stand) => stand.api));
    // And of two still alike, one written as the plan's calls are (`search_hotels` among `find_city` and
    // `get_weather_forecast`, not `Hotels.SearchHotel`): the others pay an ask for each input they lack
    // against it. A first word is no such evidence: the plan's own API starts like itself.
    const styled = (stand: StandIn) => (habit(stand.api).foreignStyle ? 0 : 1);
    const closer = (a: StandIn, b: StandIn) =>
      b.evidence - a.evidence || b.share - a.share || kin(b) - kin(a) || styled(b) - styled(a);
    const best = deleted.standIns.reduce((a, b) => (closer(b, a) < 0 ? b : a));
    const pos = Math.min(uses.first, numberedPlace(ctx, label) ?? uses.first) - BEFORE_READER;
    const featuresOf = (stand: StandIn): Features => {
      const { api, evidence, family } = stand;
      const lacks = closer(stand, best) > 0 ? Math.max(0, requiredInputs(best.api) - requiredInputs(api)) : 0;
      return plus(
        {
          restoreStep: 1,
          perCall: 1,
          dissimilarity: 1 - evidence,
          restoreFamily: 1 - family,
          insertUnrelated: strangeness.get(stand)!,
          ...habit(api),
        },
        lackingInputs(lacks),
      );
    };
    // The cheapest stand-ins under the weights are offered (`restoreCandidates`), the evidence order
    // breaking ties: among twenty APIs that output `city_id`, find_city_id, related to the plan, is not cut
    // for needing an input that a stranger does not.
    // A step of that API whose own label is out of place in the count (or missing) is the deleted step
    // under a slipped label: it takes the label back, no twin of it comes back.
    const offered = deleted.standIns
      .filter((stand) => !slipped.has(stand.api.name))
      .map((stand, rank) => {
        const features = featuresOf(stand);
        return { stand, rank, features, cost: ctx.price(features) };
      })
      .sort((a, b) => a.cost - b.cost || a.rank - b.rank)
      .slice(0, ctx.bounds.restoreCandidates)
      .sort((a, b) => a.rank - b.rank);
    for (const { stand, features } of offered) {
      const { api } = stand;
      const carried = carriedValues(api, templates(ctx, api, pos), consumers, inFull, readBack);
      const call = newCall(ctx, {
        kind: 'inserted',
        origin: -1,
        pos,
        depth: 1,
        apis: [apiChoice(ctx, api, features, carriedCharge(carried))],
        labels: [labelChoice(ctx, label, NO_FEATURES)],
        need,
        restores: label,
        carried,
        standIns: deleted.standIns.length,
      });
      labelRows(ctx, call, true);
    }
  }
}
