// One revision's changes as the history page shows them: graph changes in words, fields before and after, and a
// long text as a word diff (jsdiff), removed words struck, added words marked.
import { diffWords } from 'diff';
import type { Line } from './describe-revision.js';

function WordDiff({ before, after }: { before: string; after: string }) {
  return (
    <p className="hist-words">
      {diffWords(before, after).map((part, i) => {
        if (part.added) return <ins key={i} className="hist-words__added">{part.value}</ins>;
        if (part.removed) return <del key={i} className="hist-words__removed">{part.value}</del>;
        return <span key={i}>{part.value}</span>;
      })}
    </p>
  );
}

export function RevisionDiff({ lines }: { lines: readonly Line[] }) {
  if (lines.length === 0) return <p className="hist-muted">No change.</p>;
  return (
    <ul className="hist-diff">
      {lines.map((l, i) => {
        if (l.kind !== 'field') return <li key={i} className={`hist-diff__${l.kind}`}>{l.text}</li>;
        return (
          <li key={i} className="hist-diff__field">
            <span className="hist-diff__label">{l.label}</span>
            {l.long && l.before !== null && l.after !== null ? <WordDiff before={l.before} after={l.after} /> : (
              <span className="hist-diff__values">
                <del className="hist-words__removed">{l.before ?? '(not set)'}</del>
                <span aria-hidden="true"> → </span>
                <ins className="hist-words__added">{l.after ?? '(not set)'}</ins>
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
