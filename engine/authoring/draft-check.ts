// What a draft may hold: a change is refused when it makes the draft unloadable (the story schema refuses it, an id
// is used twice, or something names an id the story does not have, or the file is over its limits); problems that
// only say the story is unfinished (a moment that cannot complete yet, one not reachable, a missing epilogue) and
// warnings stay on the draft as its report. Publishing requires no error at all. The checks are `looptale story
// validate`'s (engine/story/validate.ts).
import { type Problem, validateStory } from '../story/validate.js';

export type DraftCheck = {
  /** The draft cannot be loaded: the change that made it so is refused with these. */
  refused: Problem[];
  /** Errors and warnings the draft may keep; its errors block publishing. */
  report: Problem[];
  /** No error of any kind: the draft may be published. */
  publishable: boolean;
};

const UNLOADABLE = /^(schema|ref|id|file)\//;

export function checkDraft(doc: unknown): DraftCheck {
  return splitReport(validateStory(doc).problems);
}

/** A validator's sorted problems as a DraftCheck. */
export function splitReport(problems: readonly Problem[]): DraftCheck {
  const refused = problems.filter((p) => p.severity === 'error' && UNLOADABLE.test(p.code));
  const report = problems.filter((p) => !(p.severity === 'error' && UNLOADABLE.test(p.code)));
  return { refused, report, publishable: !problems.some((p) => p.severity === 'error') };
}
