// The story being edited, for every studio screen inside <DraftProvider storyId>: useDraft() gives the draft
// (types.ts) over one DraftSession per story, with the engine validator's problems worked out shortly after each edit.
// Browser storage keeps unsent edits (session.ts); other tabs of this browser hear of each save at once (a
// BroadcastChannel), other authors' edits arrive within the session's poll.
import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { validateStory, type Problem } from '../../../../engine/story/validate.js';
import { browserClock, getAccessToken, SERVER_URL } from '../../api/client.js';
import { Alert } from '../../ui/alert.js';
import { Spinner } from '../../ui/spinner.js';
import { DraftSession, type SessionStorage, type SessionView } from './session.js';
import { httpTransport } from './transport.js';
import type { StudioDraft } from './types.js';

const DraftContext = createContext<StudioDraft | null>(null);

/** Problems are worked out this long after the last edit (a 2,000-moment story validates in tens of milliseconds). */
const VALIDATE_AFTER_MS = 120;

const storage: SessionStorage = {
  get: (k) => window.localStorage.getItem(k),
  set: (k, v) => window.localStorage.setItem(k, v),
  remove: (k) => window.localStorage.removeItem(k),
};

const clock = { now: () => Date.now(), after: (ms: number, fire: () => void) => browserClock.after(ms, fire) };

/** The session of a story, opened once per provider. */
function useSession(storyId: string): { session: DraftSession | null; error: string | null } {
  const [state, setState] = useState<{ id: string; session: DraftSession | null; error: string | null }>({ id: storyId, session: null, error: null });
  useEffect(() => {
    let live = true;
    let opened: DraftSession | null = null;
    const transport = httpTransport(SERVER_URL, storyId, getAccessToken, (url, init) => window.fetch(url, init));
    DraftSession.open(storyId, transport, clock, storage).then((s) => {
      if (!live) return s.close();
      opened = s;
      setState({ id: storyId, session: s, error: null });
    }, (e: unknown) => live && setState({ id: storyId, session: null, error: e instanceof Error ? e.message : String(e) }));
    return () => {
      live = false;
      if (opened) {
        void opened.flush();
        opened.close();
      }
    };
  }, [storyId]);
  return state.id === storyId ? state : { session: null, error: null };
}

/** Tells this browser's other tabs a story was saved, and pulls when they say so. */
function useTabs(storyId: string, session: DraftSession | null, revision: number): void {
  const channel = useMemo(() => (typeof BroadcastChannel === 'function' ? new BroadcastChannel('looptale.studio') : null), []);
  useEffect(() => () => channel?.close(), [channel]);
  useEffect(() => {
    if (!channel || !session) return;
    const onMessage = (e: MessageEvent<{ storyId: string; revision: number }>) => {
      if (e.data.storyId === storyId && e.data.revision > session.view.revision) void session.pull();
    };
    channel.addEventListener('message', onMessage);
    return () => channel.removeEventListener('message', onMessage);
  }, [channel, session, storyId]);
  useEffect(() => {
    if (channel && revision > 0) channel.postMessage({ storyId, revision });
  }, [channel, storyId, revision]);
}

/** The validator's problems for the draft, worked out in a worker after the edits pause (on this thread where
 *  workers are not available). */
function useProblems(doc: unknown): readonly Problem[] {
  const [problems, setProblems] = useState<readonly Problem[]>([]);
  const worker = useRef<Worker | null>(null);
  const asked = useRef(0);
  useEffect(() => {
    let w: Worker | null = null;
    try {
      w = new Worker(new URL('./validate-worker.ts', import.meta.url), { type: 'module' });
    } catch {
      return;
    }
    const onAnswer = (e: MessageEvent<{ seq: number; problems: Problem[] }>) => {
      if (e.data.seq !== asked.current) return;
      setProblems(e.data.problems);
      // Named for the studio bench (scripts/bench): from the edits' pause to the problems shown.
      performance.mark('studio:problems');
    };
    w.addEventListener('message', onAnswer);
    worker.current = w;
    return () => {
      w.terminate();
      worker.current = null;
    };
  }, []);
  useEffect(() => {
    if (doc === null) return;
    const t = window.setTimeout(() => {
      asked.current += 1;
      if (worker.current) worker.current.postMessage({ seq: asked.current, doc });
      else {
        setProblems(validateStory(doc).problems);
        performance.mark('studio:problems');
      }
    }, VALIDATE_AFTER_MS);
    return () => window.clearTimeout(t);
  }, [doc]);
  return problems;
}

const EMPTY_VIEW: SessionView | null = null;

export function DraftProvider({ storyId, children }: { storyId: string; children: ReactNode }) {
  const { session, error } = useSession(storyId);
  const view = useSyncExternalStore(
    (l) => (session ? session.subscribe(l) : () => undefined),
    () => (session ? session.view : EMPTY_VIEW),
  );
  useTabs(storyId, session, view?.revision ?? 0);
  const problems = useProblems(view?.doc ?? null);
  useEffect(() => {
    if (!session) return;
    // Sends what waits before the page goes; storage keeps it anyway if the send does not finish.
    const onHide = () => void session.flush();
    const onOnline = () => void session.flush();
    window.addEventListener('pagehide', onHide);
    window.addEventListener('online', onOnline);
    return () => {
      window.removeEventListener('pagehide', onHide);
      window.removeEventListener('online', onOnline);
    };
  }, [session]);
  const draft = useMemo<StudioDraft | null>(() => {
    if (!session || !view) return null;
    return {
      storyId,
      doc: view.doc,
      revision: view.revision,
      baseVersion: view.baseVersion,
      problems,
      status: view.status,
      pending: view.pending,
      error: view.error,
      conflicts: view.conflicts,
      resolve: (path, value) => session.resolve(path, value),
      apply: (changes, label) => session.apply(changes, label),
      undo: () => session.undo(),
      redo: () => session.redo(),
      undoLabels: view.undoLabels,
      redoLabels: view.redoLabels,
      refusal: (path) => view.refusals.get(path) ?? null,
    };
  }, [session, view, problems, storyId]);
  if (error) return <Alert>{error}</Alert>;
  if (!draft) return <Spinner label="Opening the draft..." />;
  return <DraftContext.Provider value={draft}>{children}</DraftContext.Provider>;
}

/** The story being edited; only inside <DraftProvider>. */
export function useDraft(): StudioDraft {
  const d = useContext(DraftContext);
  if (!d) throw new Error('useDraft() is used outside <DraftProvider>.');
  return d;
}

/** The story being edited, or null outside a story (the studio's layout asks, to show undo and status). */
export function useDraftOrNull(): StudioDraft | null {
  return useContext(DraftContext);
}
