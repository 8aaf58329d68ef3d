// An input's text kept beside the draft's value: what the author typed stays on screen while it means the same value
// (a trailing new line in a list, "1." in a number) or while it is refused (too long, empty when required: the
// reason shows and nothing is applied); when the draft's value changes for another reason (undo, another tab), the
// input shows it.
import { useState } from 'react';

export type SyncedText = {
  text: string;
  error: string | null;
  /** Shows `text`; `error` (or null) says why it was not applied. */
  set: (text: string, error: string | null) => void;
};

export function useSyncedText(external: string, normalize: (s: string) => string = (s) => s): SyncedText {
  const [text, setText] = useState(external);
  const [error, setError] = useState<string | null>(null);
  const [prev, setPrev] = useState(external);
  if (prev !== external) {
    setPrev(external);
    if (normalize(text) !== external) {
      setText(external);
      setError(null);
    }
  }
  return { text, error, set: (t, e) => { setText(t); setError(e); } };
}

/** A list written one entry a line: blank lines and surrounding spaces dropped. */
export const linesOf = (s: string): string[] => s.split('\n').map((l) => l.trim()).filter((l) => l !== '');
export const joinLines = (s: string): string => linesOf(s).join('\n');
