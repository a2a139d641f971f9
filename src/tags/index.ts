/** Reports over sequences: error tags (against a gold sequence or from validation) and the all-modes view. */
export {
  ERROR_TAGS,
  countTags,
  errorTags,
  tagAgainstGold,
  tagFromIssues,
  type ErrorTag,
  type ErrorTagName,
  type TagOptions,
} from './tags.ts';
export { align, canonicalJson, type Alignment, type AlignOptions } from './align.ts';
export {
  MODES,
  allModes,
  formatModes,
  modeOptions,
  type AllModes,
  type ModeName,
  type ModeRow,
} from './all-modes.ts';
