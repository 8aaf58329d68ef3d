// The draft being edited in one tab: the server's revision, this tab's edits not yet on the server, undo and redo,
// and the conflicts with other tabs and authors. Every edit applies at once to what the author sees, is kept in
// storage at once (a closed or crashed tab loses nothing) and is sent within a second; edits made offline wait and
// go when the server answers again. Other writers' revisions are read as they come and merged under this tab's edits;
// an edit of a field someone else changed since is never sent over theirs: it becomes a conflict the author resolves.
// No React and no browser globals: time, storage and the server are given, so it runs under test in node.
import { applyChanges, type Json } from '../../../../engine/authoring/apply.js';
import { type Change, MAX_CHANGES_PER_REQUEST, touchOf } from '../../../../engine/authoring/change.js';
import { conflictsOf, valueOfTouch } from '../../../../engine/authoring/merge.js';
import { diffDrafts } from '../../../../engine/authoring/diff.js';
import type { Conflict, SaveStatus } from './types.js';
import type { DraftTransport, RevisionChanges, ServerDraft, ServerProblem } from './transport.js';

export type SessionClock = { now(): number; after(ms: number, fire: () => void): { cancel(): void } };
export type SessionStorage = { get(key: string): string | null; set(key: string, value: string): void; remove(key: string): void };

/** One undoable step: what it did and what undoes it. */
type Step = { label: string; changes: Change[]; inverse: Change[]; at: number };
/** Edits waiting for the server, made against revision `base`. */
type Outgoing = { changes: Change[] };

type Saved = { v: 1; revision: number; pending: Outgoing[]; undo: Step[]; redo: Step[]; conflicts: Conflict[] };

/** Undo keeps at least this many steps (older ones drop off first). */
export const UNDO_STEPS = 300;
/** Keystrokes in one field within this long of each other make one undo step. */
export const COALESCE_MS = 1500;
/** An edit waits this long for the next before it is sent (typing sends once a pause, at the latest after SEND_MAX_MS). */
export const SEND_IDLE_MS = 300;
export const SEND_MAX_MS = 1000;
/** Other writers' revisions are looked for this often. */
export const POLL_MS = 2000;
const RETRY_MS = [1000, 2000, 5000, 10000];

export type SessionView = {
  doc: Json;
  revision: number;
  baseVersion: number | null;
  status: SaveStatus;
  pending: number;
  error: string | null;
  conflicts: readonly Conflict[];
  undoLabels: readonly string[];
  redoLabels: readonly string[];
  refusals: ReadonlyMap<string, string>;
};

const singleSet = (s: Step | Outgoing | undefined): string | null => {
  const c = s?.changes.length === 1 ? s.changes[0] : undefined;
  return c?.op === 'set' ? touchOf(c).key : null;
};

export class DraftSession {
  #server: ServerDraft;
  #pending: Outgoing[] = [];
  #inFlight: Outgoing[] | null = null;
  #undo: Step[] = [];
  #redo: Step[] = [];
  #conflicts: Conflict[] = [];
  #refusals = new Map<string, string>();
  #error: string | null = null;
  #offline = false;
  #local: Json;
  #view: SessionView;
  #listeners = new Set<() => void>();
  #sendTimer: { cancel(): void } | null = null;
  #firstUnsentAt: number | null = null;
  #pollTimer: { cancel(): void } | null = null;
  #retries = 0;
  #closed = false;

  private constructor(
    private readonly transport: DraftTransport,
    private readonly clock: SessionClock,
    private readonly storage: SessionStorage | null,
    private readonly key: string,
    server: ServerDraft,
  ) {
    this.#server = server;
    this.#local = server.doc;
    this.#view = this.#makeView();
  }

  /** Loads the draft and what this browser kept of unsent edits, undo and redo, and starts sending and watching. */
  static async open(storyId: string, transport: DraftTransport, clock: SessionClock, storage: SessionStorage | null, opts: { poll?: boolean } = {}): Promise<DraftSession> {
    const server = await transport.load();
    const s = new DraftSession(transport, clock, storage, `looptale.studio.draft.${storyId}`, server);
    s.#restore();
    if (opts.poll !== false) s.#schedulePoll();
    return s;
  }

  get view(): SessionView {
    return this.#view;
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    this.#closed = true;
    this.#sendTimer?.cancel();
    this.#pollTimer?.cancel();
  }

  /** Applies an edit now, as one undo step, and sends it soon. Problems (nothing changed) when it does not apply. */
  apply(changes: Change[], label: string): { path: string; message: string }[] | null {
    const r = applyChanges(this.#local, changes);
    if (!r.ok) return r.problems.map((p) => ({ path: p.path, message: p.message }));
    const now = this.clock.now();
    const top = this.#undo.at(-1);
    const field = singleSet({ changes });
    // Typing in one field: the keystrokes make one undo step, and one edit to send while it waits.
    if (field !== null && this.#redo.length === 0 && top && singleSet(top) === field && now - top.at < COALESCE_MS) {
      top.changes = changes;
      top.at = now;
    } else {
      this.#undo.push({ label, changes, inverse: r.inverse, at: now });
      if (this.#undo.length > UNDO_STEPS) this.#undo.splice(0, this.#undo.length - UNDO_STEPS);
      this.#redo = [];
    }
    this.#queue(changes);
    return null;
  }

  undo(): void {
    const step = this.#undo.pop();
    if (!step) return;
    const r = applyChanges(this.#local, step.inverse);
    if (!r.ok) {
      // What the step did is gone (someone removed the thing): it can no longer be undone.
      this.#error = `Cannot undo "${step.label}": ${r.problems[0]?.message ?? 'the story changed'}`;
      this.#publish();
      return;
    }
    this.#redo.push({ label: step.label, changes: step.changes, inverse: step.inverse, at: 0 });
    this.#queue(step.inverse);
  }

  redo(): void {
    const step = this.#redo.pop();
    if (!step) return;
    const r = applyChanges(this.#local, step.changes);
    if (!r.ok) {
      this.#error = `Cannot redo "${step.label}": ${r.problems[0]?.message ?? 'the story changed'}`;
      this.#publish();
      return;
    }
    this.#undo.push({ label: step.label, changes: step.changes, inverse: r.inverse, at: 0 });
    this.#queue(step.changes);
  }

  /** Keeps `value` for a conflicted path and sends it (undefined: the field removed, or the entity deleted). */
  resolve(path: string, value: unknown): void {
    const c = this.#conflicts.find((x) => x.path === path);
    if (!c) return;
    this.#conflicts = this.#conflicts.filter((x) => x !== c);
    // Keeping theirs: the draft already holds it, nothing to send.
    const changes = JSON.stringify(valueOfTouch(this.#local, path)) === JSON.stringify(value) ? [] : changesToSet(this.#local, path, value);
    if (changes.length > 0) this.apply(changes, `Resolve ${path}`);
    else this.#publish();
  }

  /** Sends what waits now (a page about to close, a test). */
  async flush(): Promise<void> {
    this.#sendTimer?.cancel();
    this.#sendTimer = null;
    await this.#send();
  }

  /** Reads other writers' revisions now. */
  async pull(): Promise<void> {
    if (this.#inFlight) return;
    const from = this.#server.revision;
    let revs: RevisionChanges[] | null;
    try {
      revs = await this.transport.since(from);
    } catch {
      return;
    }
    // A send finished meanwhile and moved the draft on: what was read no longer follows it.
    if (this.#inFlight || this.#server.revision !== from) return;
    if (revs === null) {
      const fresh = await this.transport.load();
      this.#rebase(fresh, diffDrafts(this.#server.doc, fresh.doc));
      return;
    }
    if (revs.length === 0) return;
    let doc = this.#server.doc;
    const theirs: Change[] = [];
    for (const r of revs) {
      const a = applyChanges(doc, r.changes);
      if (!a.ok) {
        const fresh = await this.transport.load();
        this.#rebase(fresh, diffDrafts(this.#server.doc, fresh.doc));
        return;
      }
      doc = a.doc;
      theirs.push(...r.changes);
    }
    this.#rebase({ ...this.#server, revision: revs.at(-1)?.revision ?? this.#server.revision, doc }, theirs);
  }

  // ---- internals

  #queue(changes: Change[]): void {
    const last = this.#pending.at(-1);
    const field = singleSet({ changes });
    if (last && field !== null && singleSet(last) === field) last.changes = changes;
    else this.#pending.push({ changes });
    this.#refresh();
    this.#scheduleSend();
  }

  /** Moves onto a newer server draft whose changes since ours were `theirs`: this tab's edits that touch the same
   *  things become conflicts (shown with both values), the others stay waiting, applied over the new draft. */
  #rebase(server: ServerDraft, theirs: Change[]): void {
    const mine = this.#pending.flatMap((p) => p.changes);
    const clashes = conflictsOf(mine, theirs, this.#server.doc, server.doc);
    const keys = new Set(clashes.map((c) => c.path));
    for (const c of clashes) {
      this.#conflicts = this.#conflicts.filter((x) => x.path !== c.path);
      this.#conflicts.push({ path: c.path, base: c.base, now: c.now, mine: c.sent });
    }
    this.#server = server;
    this.#pending = this.#pending
      .map((p) => ({ changes: p.changes.filter((c) => !keys.has(touchOf(c).key)) }))
      .filter((p) => p.changes.length > 0 && applyChanges(server.doc, p.changes).ok);
    this.#refresh();
  }

  async #send(): Promise<void> {
    if (this.#inFlight || this.#pending.length === 0 || this.#closed) return;
    // One edit at a time while looking for the one the server refuses; else everything waiting, in one request.
    const batch = this.#takeBatch();
    const changes = batch.flatMap((b) => b.changes);
    this.#inFlight = batch;
    this.#firstUnsentAt = null;
    this.#publish();
    const base = this.#server;
    // Edits kept from before a reload were made against an older revision: the server merges them from there.
    const restoredBase = this.#restoredBase;
    const r = await this.transport.send(restoredBase ?? base.revision, changes);
    this.#inFlight = null;
    switch (r.kind) {
      case 'written': {
        this.#restoredBase = null;
        this.#offline = false;
        this.#error = null;
        this.#retries = 0;
        // The refused edit was dropped: its message goes with the header's, at the next edit the server takes.
        this.#refusals.clear();
        if (restoredBase !== null) {
          this.#server = r.draft;
          this.#refresh();
          break;
        }
        // Merged: others wrote since our base; what they changed is what the new draft holds beyond ours.
        const expected = applyChanges(base.doc, changes);
        const theirs = r.merged && expected.ok ? diffDrafts(expected.doc, r.draft.doc) : [];
        this.#server = { ...base, doc: expected.ok ? expected.doc : base.doc };
        this.#rebase(r.draft, theirs);
        break;
      }
      case 'conflict': {
        // Someone wrote the same thing between our last read and this send: read their revisions, which turns the
        // clashing edits into conflicts, and send the rest again.
        this.#pending.unshift(...batch);
        if (restoredBase === null) await this.pull();
        if (restoredBase !== null || this.#server.revision === base.revision) {
          this.#restoredBase = null;
          const keys = new Set(r.conflicts.map((c) => c.path));
          for (const c of r.conflicts) {
            this.#conflicts = this.#conflicts.filter((x) => x.path !== c.path);
            this.#conflicts.push({ path: c.path, base: c.base, now: c.now, mine: c.sent });
          }
          this.#pending = this.#pending.map((p) => ({ changes: p.changes.filter((c) => !keys.has(touchOf(c).key)) })).filter((p) => p.changes.length > 0);
          if (restoredBase !== null) this.#server = await this.transport.load();
          this.#refresh();
        }
        break;
      }
      case 'invalid': {
        if (batch.length > 1) {
          this.#pending.unshift(...batch);
          this.#oneAtATime = true;
        } else {
          this.#error = r.message;
          for (const p of r.problems) this.#refusals.set(p.path, p.message);
          this.#dropUndoOf(changes);
        }
        this.#refresh();
        break;
      }
      case 'retry': {
        this.#pending.unshift(...batch);
        this.#offline = r.offline;
        this.#error = r.message;
        const wait = r.afterMs ?? RETRY_MS[Math.min(this.#retries, RETRY_MS.length - 1)] ?? 10000;
        this.#retries += 1;
        this.#publish();
        this.#sendTimer = this.clock.after(wait, () => { this.#sendTimer = null; void this.#send(); });
        return;
      }
      case 'refused': {
        this.#pending.unshift(...batch);
        this.#error = r.message;
        this.#publish();
        return;
      }
    }
    if (this.#pending.length === 0) this.#oneAtATime = false;
    if (this.#pending.length > 0) this.#scheduleSend(0);
    else this.#publish();
  }

  /** The edits of the next request: every waiting one (one at a time while looking for a refused one), up to the
   *  server's MAX_CHANGES_PER_REQUEST changes; an edit bigger than that (a whole story laid out) goes in several
   *  requests, in order. */
  #takeBatch(): Outgoing[] {
    const batch: Outgoing[] = [];
    let size = 0;
    while (this.#pending.length > 0 && !(this.#oneAtATime && batch.length === 1)) {
      const next = this.#pending[0] as Outgoing;
      if (size + next.changes.length <= MAX_CHANGES_PER_REQUEST) {
        batch.push(next);
        size += next.changes.length;
        this.#pending.shift();
        continue;
      }
      if (batch.length === 0) {
        batch.push({ changes: next.changes.slice(0, MAX_CHANGES_PER_REQUEST) });
        next.changes = next.changes.slice(MAX_CHANGES_PER_REQUEST);
      }
      break;
    }
    return batch;
  }

  #oneAtATime = false;
  #restoredBase: number | null = null;

  #dropUndoOf(changes: Change[]): void {
    const keys = new Set(changes.map((c) => JSON.stringify(c)));
    this.#undo = this.#undo.filter((s) => !s.changes.every((c) => keys.has(JSON.stringify(c))));
  }

  #scheduleSend(delay?: number): void {
    if (this.#closed) return;
    const now = this.clock.now();
    this.#firstUnsentAt ??= now;
    const wait = delay ?? Math.max(0, Math.min(SEND_IDLE_MS, this.#firstUnsentAt + SEND_MAX_MS - now));
    this.#sendTimer?.cancel();
    this.#sendTimer = this.clock.after(wait, () => { this.#sendTimer = null; void this.#send(); });
  }

  #schedulePoll(): void {
    if (this.#closed) return;
    this.#pollTimer = this.clock.after(POLL_MS, () => {
      void this.pull().finally(() => this.#schedulePoll());
    });
  }

  /** Recomputes what the author sees: the server's draft with the waiting edits over it. */
  #refresh(): void {
    let doc = this.#server.doc;
    for (const p of [...(this.#inFlight ?? []), ...this.#pending]) {
      const r = applyChanges(doc, p.changes);
      if (r.ok) doc = r.doc;
    }
    this.#local = doc;
    this.#publish();
  }

  #publish(): void {
    this.#save();
    this.#view = this.#makeView();
    for (const l of this.#listeners) l();
  }

  #makeView(): SessionView {
    const waiting = this.#pending.length + (this.#inFlight?.length ?? 0);
    const status: SaveStatus = this.#conflicts.length > 0 ? 'conflict'
      : this.#offline ? 'offline'
      : this.#inFlight ? 'saving'
      : waiting > 0 ? (this.#error ? 'error' : 'pending')
      : this.#error ? 'error' : 'saved';
    return {
      doc: this.#local,
      revision: this.#server.revision,
      baseVersion: this.#server.baseVersion,
      status,
      pending: waiting,
      error: this.#error,
      conflicts: this.#conflicts,
      undoLabels: this.#undo.map((s) => s.label).reverse(),
      redoLabels: this.#redo.map((s) => s.label).reverse(),
      refusals: new Map(this.#refusals),
    };
  }

  /** Keeps unsent edits, undo, redo and conflicts in storage: a reload or a crash loses none of them. */
  #save(): void {
    if (!this.storage) return;
    const saved: Saved = {
      v: 1, revision: this.#restoredBase ?? this.#server.revision,
      pending: [...(this.#inFlight ?? []), ...this.#pending],
      undo: this.#undo, redo: this.#redo, conflicts: this.#conflicts,
    };
    try {
      this.storage.set(this.key, JSON.stringify(saved));
    } catch {
      // Storage full: keep the unsent edits, let the oldest undo steps go.
      try {
        this.storage.set(this.key, JSON.stringify({ ...saved, undo: this.#undo.slice(-50), redo: [] }));
      } catch {
        // Nothing more can be kept; the edits are still sent.
      }
    }
  }

  #restore(): void {
    const raw = this.storage?.get(this.key);
    if (!raw) return;
    let saved: Saved;
    try {
      saved = JSON.parse(raw) as Saved;
    } catch {
      return;
    }
    if (saved.v !== 1) return;
    this.#undo = saved.undo ?? [];
    this.#redo = saved.redo ?? [];
    this.#conflicts = saved.conflicts ?? [];
    const pending = saved.pending ?? [];
    if (pending.length > 0) {
      this.#pending = pending;
      if (saved.revision !== this.#server.revision) this.#restoredBase = saved.revision;
      this.#scheduleSend(0);
    }
    this.#refresh();
  }
}

/** The changes that give `path` ("moments/ID/goal", "name", "catalogue/x", "moments/ID") the value `value`. */
export function changesToSet(doc: Json, path: string, value: unknown): Change[] {
  const parts = path.split('/');
  const [a = '', b, field] = parts;
  const isCollection = a === 'moments' || a === 'characters' || a === 'items' || a === 'places';
  if (isCollection && b !== undefined && field === undefined) {
    const now = valueOfTouch(doc, path);
    const out: Change[] = [];
    if (now !== undefined) out.push({ op: 'remove', collection: a, id: b });
    if (value !== undefined) out.push({ op: 'add', collection: a, value: value as Record<string, unknown> });
    return out;
  }
  return [{ op: 'set', path: parts as never, ...(value !== undefined ? { value } : {}) }];
}

export type { ServerProblem };
