// For component tests: a StudioDraft over a local document, with the engine's own apply and validator, that records
// every apply call (its changes and label), so a test sees exactly what a screen asked the draft layer to do.
import { createContext, type ReactNode, useContext, useState } from 'react';
import { applyChanges, type Json } from '../../../../engine/authoring/apply.js';
import type { Change } from '../../../../engine/authoring/change.js';
import { validateStory } from '../../../../engine/story/validate.js';
import type { Problem } from '../../../../engine/story/validate.js';
import type { StudioDraft } from '../draft/types.js';
import type { TranslationAges } from './translation-gaps.js';

export type Applied = { changes: Change[]; label: string };

const Ctx = createContext<{ draft: StudioDraft; ages?: TranslationAges } | null>(null);

export function useLocalDraft(): StudioDraft {
  const c = useContext(Ctx);
  if (!c) throw new Error('useDraft outside LocalDraft');
  return c.draft;
}

export function useLocalAges(): TranslationAges | undefined {
  return useContext(Ctx)?.ages;
}

export function LocalDraft({ doc, log, problems, refusals = {}, ages, children }: {
  doc: Json; log: Applied[]; problems?: Problem[]; refusals?: Record<string, string>; ages?: TranslationAges; children: ReactNode;
}) {
  const [cur, setCur] = useState(doc);
  const draft: StudioDraft = {
    storyId: String(doc.id), doc: cur, revision: 1, baseVersion: null,
    problems: problems ?? validateStory(cur).problems, status: 'saved', pending: 0, error: null, conflicts: [],
    resolve: () => undefined,
    apply(changes, label) {
      log.push({ changes, label });
      const r = applyChanges(cur, changes);
      if (!r.ok) return r.problems;
      setCur(r.doc);
      return null;
    },
    undo: () => undefined, redo: () => undefined, undoLabels: [], redoLabels: [],
    refusal: (path) => refusals[path] ?? null,
  };
  return <Ctx.Provider value={{ draft, ...(ages ? { ages } : {}) }}>{children}</Ctx.Provider>;
}
