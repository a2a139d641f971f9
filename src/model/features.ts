/**
 * The cost model's features. Every candidate decision of a repair model (keep or rename an argument, feed a
 * parameter from an output, ask, insert or restore a call, …) carries a sparse vector of named features, and
 * its cost is the dot product of that vector with the cost model's weights (`price`): the one place where
 * weights meet evidence. The list below is the model's vocabulary: each feature's meaning, the weight the
 * hand-written model gives it (`hand`, the `hand` preset; the shipped `default` is learned from labelled
 * repairs) and where a test shows it. Edit kinds are indicator features (1 when the edit is made); evidence
 * features measure how unlike two names are, how far apart two calls stand, and so on.
 */

export type FeatureGroup = 'edit' | 'evidence' | 'closeness';

export interface FeatureSpec {
  readonly group: FeatureGroup;
  /** What the feature's value measures (one line, for the generated table). */
  readonly meaning: string;
  /** The weight of the hand-written model (`models/hand.json`). */
  readonly hand: number;
  /** A test that shows the feature at work (`test/cases/<name>.json`, or a unit test). */
  readonly shownBy: string;
}

const edit = (meaning: string, hand: number, shownBy: string): FeatureSpec => ({
  group: 'edit',
  meaning,
  hand,
  shownBy,
});
const evidence = (meaning: string, hand: number, shownBy: string): FeatureSpec => ({
  group: 'evidence',
  meaning,
  hand,
  shownBy,
});
const close = (meaning: string, hand: number, shownBy: string): FeatureSpec => ({
  group: 'closeness',
  meaning,
  hand,
  shownBy,
});

const UNIT = 'test/features.test.ts';

/** Every feature, in the order of the generated table. */
export const FEATURES = {
  // Edit kinds: indicators (or counts) of the edits a repair makes.
  deleteStep: edit(
    'remove a call; its arguments are lost too (each charged as dropParam)',
    4,
    'unknown-call-is-partial',
  ),
  renameApi: edit('call another catalog API at a step (plus dissimilarity for the names)', 5, 'made-up-api'),
  renameParam: edit('keep a value, change its parameter name (plus dissimilarity)', 1, 'made-up-parameter'),
  dropParam: edit(
    'remove an argument the API does not accept (or lost with its step)',
    1.5,
    'made-up-property',
  ),
  dropResult: edit(
    'remove a reference from the answer pseudo-step (var_result)',
    20,
    'answer-keeps-its-call',
  ),
  reassign: edit(
    'point a reference at another existing output, or fill a parameter from an output of its own name',
    1,
    'wrong-label-allow-deletes',
  ),
  newMap: edit(
    'fill a parameter from an output of another name through a mapping; the value is 2 − the mapping score',
    2,
    'missing-parameter-mapped',
  ),
  slotFill: edit(
    'ask(p): the value must come from the user (a count of questions)',
    4,
    'ask-what-a-person-knows',
  ),
  fromMemory: edit('fill a parameter or a reference from an item already in memory', 1, 'role-memory-item'),
  reuseExecuted: edit(
    'read the result of an executed call that memory holds, where a planned call repeats it (same API and arguments): the repeat can go (a hundredth: a repeat that stays keeps its readers); the edit is listed as `fromMemory`',
    0.01,
    'executed-result-is-reused',
  ),
  reuseLiteral: edit(
    'fill a parameter with a value the sequence passes to a same-named parameter: a literal, or a reference',
    0.5,
    'reused-reference',
  ),
  insertUnlikeParallel: evidence(
    'an inserted call of another API than the calls its consumer already reads for the same kind of value (a destination airport looked up by another API than the origin’s)',
    1,
    'inserted-lookup-like-its-parallel',
  ),
  reuseParallel: evidence(
    'a literal copied into an inserted call from a call of the same kind (it produces the same value) whose output the inserted call’s consumer already reads: two roles of one call fed from one value (a second airport lookup for the origin’s city)',
    4,
    'second-lookup-asks-its-own-value',
  ),
  insertReadsSibling: evidence(
    'an inserted lookup’s input read from another field of a call (or memory item) its consumer already reads for another input: two lookups that feed one call are each the user’s (the doctor’s name does not find the patient)',
    4,
    'inserted-lookup-not-fed-by-its-sibling',
  ),
  unreadIntoStranger: evidence(
    'an unread output feeds an input of a deleted step put back as an API unrelated to the plan and to what its uses read: the lost chain’s end is the plan’s own call, and a stranger fed from an unread output is a guess on a guess',
    3,
    'lost-end-no-stranger-from-unread',
  ),
  reuseTwinLookup: evidence(
    'a literal copied into an inserted call from another call of the same kind (it produces what the inserted call was put in for), not one its consumer reads: the copy repeats a lookup the plan already makes with that value (a team the plan looks up later, looked up again by another API that finds a team)',
    4,
    'lost-lookup-not-a-repeat',
  ),
  reuseEchoed: evidence(
    'a literal copied from the input of an earlier call that outputs it under the same name: its output is the likelier source (`$var1.date$`), the copy a restatement. Above an ask (`slotFill`), so that the candidate is there for a gold that copies (candidate coverage) and a fit, not for the default to take',
    6,
    UNIT,
  ),
  insertCall: edit('add a new catalog call (its own inputs are charged as well)', 4.5, 'missing-step'),
  bareCall: evidence(
    'a call inserted for a value another call needs is of an API that takes parameters but requires none: nothing says which value it gives, and the optional settings it carries from its reader (`country`, `page`) do not say it either',
    5,
    'lost-lookup-not-a-bare-call',
  ),
  restoreStep: edit(
    'put back a deleted step under the label its consumers reference (its inputs are charged as well)',
    2,
    'deleted-producer-comes-back',
  ),
  omitCarried: edit(
    'a call put back in a deleted step’s place, or inserted for what an input step lacks, leaves out an optional value it would carry (a setting the step that reads it passes under the same name, a default a call written alike spells out); charged on its API choice, refunded by each value it carries',
    1,
    'inserted-producer-carries-its-readers-settings',
  ),
  restoreRerun: edit(
    'a restored step that runs again under a fresh label for a memory item that holds nothing (its readers re-pointed at it)',
    0.5,
    'memory-item-empty-reruns-its-producer',
  ),
  askProduced: edit(
    'asking for a value a catalog API outputs (an id, or a value the plan took from an output); the value is the cost of inserting the cheapest such producer with its inputs asked (0 weight: off)',
    1,
    'ask-what-a-person-knows',
  ),
  askProducedStranger: edit(
    'the same premium when only APIs that share no content word with the plan (strangers) produce the value, in any plan (a stranger is weaker evidence that a call was lost)',
    1,
    'flat-plan-inserts-no-stranger',
  ),
  askProducedIncoherent: edit(
    'the same premium in a plan of unrelated requests (two calls or more, none reads another, no two APIs share a content word)',
    1,
    UNIT,
  ),
  askProducedGivenIds: edit(
    'the same premium for an id, where the sequence passes literals to other parameters that name ids (`pet_id="C-3310"`): a plan whose author types identifiers in (before the plan-of-unrelated-requests premium)',
    1,
    UNIT,
  ),
  askProducedUnnamed: edit(
    'the same premium for a value whose name names no id (`artst_ref`) and which the plan did not take from an output, where an API related to the plan outputs it as an identifier under another name (a field mapped onto it or standing for it in context, named or described as an identifier: `ref`, "The unique identifier of the artist."): 0 by default; a fit on a habit that names ids otherwise raises it (benchmarks/results/transfer.md)',
    0,
    UNIT,
  ),
  insertIncoherent: evidence('an inserted call in a plan of unrelated requests', 0, UNIT),
  unreadIncoherent: evidence(
    'an unread output fills a parameter in a plan of unrelated requests with no evidence of a flow: the parameter takes no content to act on (`text`, `message`), the field is not its API’s headline result (see headlineCoverage), no answer key names it, its name is not generic (each of those is a class of its own below)',
    0,
    'flat-plan-asks-for-a-lost-value',
  ),
  unreadIncoherentPayload: evidence(
    'the same where the parameter takes content to act on (`text`, `message`): any earlier result may be it',
    0,
    UNIT,
  ),
  unreadIncoherentHeadline: evidence(
    'the same where the field is its API’s headline result (see headlineCoverage) and the parameter takes no content',
    0,
    UNIT,
  ),
  unreadIncoherentKeyed: evidence(
    'the same where an answer key names the field, and neither of the above holds',
    0,
    UNIT,
  ),
  unreadIncoherentGeneric: evidence(
    'the same where the field’s name is generic (`data`, `result`), and none of the above holds',
    0,
    UNIT,
  ),
  mapIncoherent: evidence(
    'a mapped field (a name mapped onto the parameter, not its own) of one call of a plan of unrelated requests fills a parameter of another (`full_name = $var1.data.name$` from a doctor lookup for a student search): names that match by chance',
    2,
    'flat-plan-asks-rather-than-map',
  ),
  reassignIncoherent: evidence(
    'an output of the parameter’s own name, of one call of a plan of unrelated requests, fills a parameter of another (`title = $var1.title$` from a book search for an assignment check), unless it is its API’s headline result (see headlineCoverage): in a large catalog a common name matches by chance',
    0,
    'flat-plan-asks-rather-than-reassign',
  ),
  insertUnrelated: evidence(
    'an inserted or put-back API shares no content word with the plan nor with what it is inserted or read for (a stranger; a name written like the plan’s calls, `get_player` among `get_grades` calls, is no kinship), valued at how common what it is inserted for is (see linkCommonField; for a parameter no API outputs under its name, `recipient_user_id`, by the APIs that produce it through a mapping): the one API that outputs a rare field is evidence, one of many a guess',
    0,
    'flat-plan-inserts-no-stranger',
  ),
  foreignPrefix: evidence(
    'a restored or inserted API’s name starts with a word no call of the plan starts with (`find_course_id` in a plan of `search_student`, `musicSearchArtist` among Spotify_Scraper calls) while another API that could be that call does (for an inserted API named after what it is inserted for, another one named so: a review API that outputs a city does not make `Find_City` foreign; for a put-back API, another one related to the plan or to what it is read for: a look-alike stranger does not make find_student_id foreign): of two lookups alike, the one named in the plan’s habit',
    4,
    'lost-lookup-named-in-the-plans-habit',
  ),
  foreignStyle: evidence(
    'a restored or inserted API’s name is written unlike every call of the plan (separator and first letter’s case: `find_product_id` among `Find_Customer` and `Place_Order`, `geoFindCity` among `Search_Hotels` calls) while another API that could be that call is written like one (for an inserted API named after what it is inserted for, another one named so; for a put-back API, another one related to the plan or to what it is read for): one provider names its APIs one way',
    4,
    'lost-lookup-in-the-plans-naming-style',
  ),
  insertCommonNeed: evidence(
    'how common what an inserted call was proposed for is in the catalog (log scale, see linkCommonField and insertUnrelated)',
    0,
    UNIT,
  ),
  unreadOutput: edit(
    'fill a parameter that has no argument from a field of another name of an earlier call whose output no other call reads',
    3,
    'unread-output-feeds-lost-argument',
  ),
  relabel: edit('change the output label of a step', 1, 'wrong-label'),
  addLabel: edit('give an unlabelled step a label', 1, 'missing-label'),
  moveStep: edit('move a call earlier so its output exists before it is used', 0.9, 'gold'),
  reassignRestoredWhole: evidence(
    'a whole output the answer reads under a label nothing defines, re-pointed to a call the repair puts back (a guess on a guess: that call is itself inferred)',
    0.5,
    'answer-reads-the-restored-call',
  ),
  moveCounted: evidence(
    'a moved call takes a lost label while its own stands in its place in the count (var5 between var4 and var6 names its own step, not the lost var2)',
    6,
    'moved-call-keeps-its-counted-label',
  ),
  confirm: edit('defensive mode: confirm a value the repair invented', 0.5, 'test/modes.test.ts'),
  perCall: edit(
    'every call kept or added, in any mode (optimal mode uses optimalPerCall when this weight is 0)',
    0,
    'test/modes.test.ts',
  ),
  dissimilarity: evidence(
    'how unlike two names are (1 − match) on renames, re-pointed references and restored steps',
    1,
    'field-fixed-by-suffix',
  ),
  tieBreak: close(
    'scale of the uniqueness term every variable carries (a fixed hash of its index, /100): no two repairs tie',
    0.01,
    'test/optimality.test.ts',
  ),
  renameByValue: evidence(
    'a made-up parameter’s value moves to a required parameter of another name by what the value reads as (see valueReadsAs), not by the names',
    1,
    'made-up-parameter-value-moves',
  ),
  renameMisfit: evidence(
    'a renamed literal does not fit the declared type of the parameter it is renamed to (`lang="en"` as a rating)',
    1,
    UNIT,
  ),
  answerSharedProducer: evidence(
    'two keys of the answer read one call where the input had one of them read a label that is no place in the count (`var20`, `var3` past it): each key names a result of its own, so a re-pointed key seldom joins another key’s call (a label inside the count, where a deleted step stood, keeps the keys apart whatever this weight)',
    1000,
    'answer-key-joins-its-call',
  ),
  renameShadowed: evidence(
    'a renamed argument’s name is closer to another parameter the step already passes (`return_daate` beside `return_date`): a stray copy, not a misspelt parameter',
    1,
    'stray-copy-is-dropped',
  ),
  // Links by evidence alone (links.ts), and the evidence an unread output's link weighs too.
  linkAny: evidence(
    'fill a parameter without an argument from a field of another name by evidence alone (no name, mapping or unread rule)',
    1000,
    UNIT,
  ),
  linkUnsupported: evidence(
    'a field fills a parameter (a link, or an unread output) with no evidence: no shared or alike name (see nameEvidenceSimilarity), no shared description word, no one declared type more telling than text (an integer count into a number rating is none), the parameter takes no content to act on and the field is no content (`translated_text`) itself (`phone = $var2.sentiment$`)',
    1.5,
    'flat-plan-asks-for-an-unsupported-value',
  ),
  linkNameDissimilarity: evidence('1 − character similarity of a linked field and the parameter', 0, UNIT),
  linkNoSharedWord: evidence('a linked field and the parameter share no word', 0, UNIT),
  linkNoDescriptionWord: evidence(
    'a linked field and the parameter share no content word in their names and descriptions',
    0,
    UNIT,
  ),
  linkCommonField: evidence(
    'how common the linked field is in the catalog: log(1 + APIs that output it) / log(1 + APIs)',
    0,
    UNIT,
  ),
  linkOtherDomain: evidence('the producing and the consuming API share no content word', 0, UNIT),
  feedOtherThanDescribed: evidence(
    'a parameter whose description names the API its value comes from (`The id of the stock, from search_stock.`) is fed by a call of another API',
    2,
    'described-source-of-a-lost-lookup',
  ),
  linkLooseType: evidence(
    'the declared types can meet only loosely (a list or object written into text) or not at all (text into a number: a link offered for the fit, none under strict types)',
    0,
    UNIT,
  ),
  copyAny: evidence(
    'fill a parameter without an argument with a literal the sequence passes under another name',
    1000,
    UNIT,
  ),
  copyNameDissimilarity: evidence('1 − similarity of the two parameters’ names', 0, UNIT),
  copyNoSharedWord: evidence('the two parameters’ names share no word', 0, UNIT),
  copyMisfit: evidence('the copied literal does not fit the parameter’s declared type or enum', 0, UNIT),
  // Evidence a re-pointed reference weighs.
  reassignOtherLabel: evidence(
    'a broken field moved to another, existing label (the label was right, the field wrong)',
    0.5,
    'broken-field-stays-on-its-label',
  ),
  reassignCountedBefore: evidence(
    'a deleted step’s reference re-pointed at a call the count puts before that step (var4 for a lost var5) whose output the plan reads elsewhere: it ran before that step, so it is hardly that step',
    12,
    'numbered-below-not-the-lost-step',
  ),
  reassignCountedBeforeUnread: evidence(
    'the same for the answer’s reference, at a call whose output nothing reads: a result the plan made and never shows, the answer’s label mistyped',
    0.3,
    'mislabelled-answer-reads-unread-call',
  ),
  reassignNamedDeletedUnread: evidence(
    'the answer’s whole reference to a deleted step its key names (an API’s name covers the key) re-pointed at an input call of another API whose output nothing reads: the answer’s label mistyped (`ticket_details = $var8$` beside a bought ticket nobody reads, where in a large catalog some API’s name covers any key)',
    2,
    'mislabelled-answer-not-a-named-step',
  ),
  reassignOtherLabelInAnswer: evidence(
    'the same in the answer step, whose key names a result of the very call it reads',
    1,
    'answer-keeps-its-call',
  ),
  answerWhole: evidence(
    'the answer shows a call’s whole output where it named a field the call does not output',
    1000,
    UNIT,
  ),
  answerWholeSpecific: evidence(
    'the same, where the named field is not a generic name (`data`, `result`)',
    0,
    UNIT,
  ),
  // Closeness: tie-breaks that order candidates alike in everything else.
  closeMatch: close(
    '1 − match of a re-pointed field on its own label',
    0.005,
    'broken-field-stays-on-its-label',
  ),
  closeSibling: close(
    'the source label feeds another parameter of this step (not one of the same role)',
    0.005,
    'role-missing-destination-entity',
  ),
  closePlanFeed: close(
    'the source label feeds a parameter of this name elsewhere in the plan',
    0.0025,
    'parallel-roles-of-another-trip',
  ),
  closeOther: close('the source label feeds nothing of this step', 0.01, 'role-missing-destination-entity'),
  moveSibling: close(
    'a reference moved to a label that feeds another parameter of this step',
    0.0025,
    'wrong-label-allow-deletes',
  ),
  movePlanFeed: close(
    'a reference moved to a label that feeds a parameter of this name elsewhere',
    0.00125,
    'wrong-label-allow-deletes',
  ),
  moveOther: close(
    'a reference moved to a label that feeds nothing of this step',
    0.005,
    'wrong-label-allow-deletes',
  ),
  renameApiSpelling: close(
    'lexical distance, case and order kept, of the API a call is renamed to from the name written: of catalog names alike once folded (`search_airport`, `Search_Airport`), the one spelt as written',
    0.0025,
    'renamed-to-the-twin-spelt-alike',
  ),
  moveLabel: close('a reference moved to another label at all', 0.0025, 'wrong-label-allow-deletes'),
  moveLabelName: close(
    'lexical distance of the label a reference moves to from the one written',
    0.0025,
    'made-up-variable',
  ),
  closeDepth: close('how deep the source field sits in its output (keys below the top)', 0.001, UNIT),
  closeLabelName: close('lexical distance of the source label from the parameter name', 0.001, UNIT),
  closeRoleOrder: close(
    'parallel roles take sources in plan order: the role rank times how late the source call stands',
    0.01,
    'ordered-operands-in-plan-order',
  ),
  closeRecency: close(
    'of two calls of one API, the steps between the source and the consumer (a share of the plan)',
    0.0005,
    'nearest-of-two-lookups',
  ),
  closeEcho: close(
    'the source call takes a value of the field’s name and outputs it again: read from it the value is passed on, and of two sources alike the plan reads the one that made it (a movie’s name from its search, not from the show times that took it)',
    0.01,
    'name-read-from-its-source',
  ),
  closeDistance: close(
    'steps between a copied value (or an unread source) and its consumer, a share of the plan',
    0.01,
    'reused-reference',
  ),
  literalAfterReference: close(
    'a literal copied where another call reads the value from an output (the plan’s way comes first)',
    0.01,
    'reused-reference',
  ),
  dropTie: close(
    'dropping a value rather than keeping it under a close name (drops never tie with renames)',
    0.0001,
    UNIT,
  ),
  askSharedRebate: close(
    'a call reads another call’s answer for a parameter of the same name (value −(1 − distance/2n)): one question, not two',
    0.001,
    'one-ask-per-slot',
  ),
  restoreFamily: close(
    'how unlike a restored or inserted API’s name is to every call of the plan (1 − closeness): of two lookups alike, the plan’s own',
    0.01,
    'restored-step-of-the-plans-family',
  ),
  restorePad: close(
    'a restored API needing fewer inputs than the best-named one (of two named alike, one related to the plan; of two related alike, one written as the plan’s calls are), a stranger inserted for a need with fewer inputs than its related producers, or a producer of the need under another name with fewer inputs than a related one of its very name (the inputs it lacks are charged as slotFill)',
    0.01,
    'restored-step-closest-name',
  ),
  unreadFieldName: close(
    'lexical distance of an unread source field from the parameter it fills',
    0.01,
    'unread-output-feeds-lost-argument',
  ),
  unreadObjectRank: close(
    'a chain into a restored step feeds the parameter its API acts on first (its rank)',
    0.01,
    'chained-restored-step-feeds-its-object',
  ),
  unreadUnkeyed: close(
    'an unread field the answer’s key does not spell, where it spells another',
    0.01,
    'unread-field-named-by-the-answer',
  ),
} as const satisfies Record<string, FeatureSpec>;

export type FeatureName = keyof typeof FEATURES;

export const FEATURE_NAMES = Object.keys(FEATURES) as FeatureName[];

/** A sparse feature vector: the features a decision has, by name (absent = 0). */
export type Features = Readonly<Partial<Record<FeatureName, number>>>;

/** The empty vector (decisions that cost nothing: a label kept, a reference kept). */
export const NO_FEATURES: Features = Object.freeze({});

/** The dot product of a feature vector with the weights: a decision's cost. */
export function price(features: Features, weights: Readonly<Record<FeatureName, number>>): number {
  let cost = 0;
  for (const name in features) cost += weights[name as FeatureName] * features[name as FeatureName]!;
  return cost;
}

/** `a + scale · b`, as a new vector. */
export function plus(a: Features, b: Features, scale = 1): Features {
  const out: Partial<Record<FeatureName, number>> = { ...a };
  for (const name in b) {
    const k = name as FeatureName;
    out[k] = (out[k] ?? 0) + scale * b[k]!;
  }
  return out;
}

/** Adds `scale · f` into the accumulator `into` (a repair's feature total). */
export function accumulate(into: Partial<Record<FeatureName, number>>, f: Features, scale = 1): void {
  for (const name in f) {
    const k = name as FeatureName;
    into[k] = (into[k] ?? 0) + scale * f[k]!;
  }
}
