// Notifications (game spec §3, §9): one shown at a time, in arrival order, each for its kind's duration and then a
// 500 ms exit buffer before the next. The upgrade banner has a slot of its own (see `push`).
import { type Notification, NOTIFICATION_MS } from '../schema/notification.js';
import { isRankLetter, rankToLetter } from '../catalogue/rank-letter.js';
import { type TimerEffect, type TimerFired, type Transition, cancelTimer, startTimer } from './effects.js';

export const NOTIFICATION_EXIT_MS = NOTIFICATION_MS.exit_buffer;
export const UPGRADE_COMPLETE_MS = NOTIFICATION_MS.upgrade_complete;

export const NOTIFICATION_TEXT = {
  free: 'Free!',
  // The spec names the perfect notification but not its words.
  perfect: 'Perfect answer!',
  upgradeComplete: 'Here is your riddle',
  firstTime: 'FIRST TIME!',
} as const;

export function rankAchievedText(letter: string): string {
  return `RANK ${letter} ACHIEVED!`;
}

export type UpgradeNotification = Extract<Notification, { kind: 'upgrade_progress' }>;
type QueuedNotification = Exclude<Notification, UpgradeNotification>;

/** How long a notification shows: its own duration if it has one, else its kind's; null = until replaced. */
export function notificationDuration(n: Notification): number | null {
  if (n.duration !== undefined) return n.duration;
  switch (n.kind) {
    case 'perfect': return NOTIFICATION_MS.perfect;
    case 'free': return NOTIFICATION_MS.free;
    case 'sacrificed_properties': return NOTIFICATION_MS.sacrificed_properties;
    case 'rank_achieved': return NOTIFICATION_MS.rank_achieved;
    case 'card_modifier': return NOTIFICATION_MS.card_modifier;
    case 'upgrade_progress': return n.upgradeData.isComplete ? NOTIFICATION_MS.upgrade_complete : null;
  }
}

export interface NotificationDisplay {
  readonly text: string;
  readonly details: readonly string[];
  /** 'FIRST TIME!', shown in gold, for a rank reached for the first time. */
  readonly badge: string | null;
}

/** What the player reads for a notification. */
export function displayNotification(n: Notification): NotificationDisplay {
  switch (n.kind) {
    case 'rank_achieved': {
      const raw = n.rankData.rank.trim().toUpperCase();
      const letter = isRankLetter(raw) ? raw : rankToLetter(Number(raw));
      const badge = n.rankData.isFirstTimeAchieved ? NOTIFICATION_TEXT.firstTime : null;
      return { text: rankAchievedText(letter), details: [], badge };
    }
    case 'upgrade_progress':
      return { text: n.upgradeData.isComplete ? NOTIFICATION_TEXT.upgradeComplete : n.message, details: [], badge: null };
    case 'card_modifier':
      return {
        text: n.message,
        details: n.applied_modifiers.map((m) => `${m.character_name} (${m.card_type}): ${m.description}`),
        badge: null,
      };
    case 'sacrificed_properties':
      return { text: n.message, details: n.properties, badge: null };
    case 'free':
      return { text: n.message || NOTIFICATION_TEXT.free, details: [], badge: null };
    case 'perfect':
      return { text: n.message || NOTIFICATION_TEXT.perfect, details: [], badge: null };
  }
}

export interface NotificationQueue {
  readonly current: { readonly notification: QueuedNotification; readonly phase: 'showing' | 'exiting' } | null;
  readonly queue: readonly QueuedNotification[];
  readonly banner: UpgradeNotification | null;
}

export const EMPTY_NOTIFICATIONS: NotificationQueue = { current: null, queue: [], banner: null };

export type NotificationEvent =
  | { readonly type: 'push'; readonly notifications: readonly Notification[] }
  /** The player closed the notification on screen; it leaves through the exit buffer. */
  | { readonly type: 'dismiss' }
  | { readonly type: 'dismiss_banner' }
  | { readonly type: 'clear' }
  | TimerFired;

export type NotificationTransition = Transition<NotificationQueue, TimerEffect>;

const showKey = (id: string): string => `notification:show:${id}`;
const exitKey = (id: string): string => `notification:exit:${id}`;
const bannerKey = (id: string): string => `notification:banner:${id}`;

export function transitionNotifications(state: NotificationQueue, event: NotificationEvent): NotificationTransition {
  switch (event.type) {
    case 'push':
      return event.notifications.reduce<NotificationTransition>((acc, n) => then(acc, push(acc.state, n)), { state, effects: [] });
    case 'dismiss':
      return state.current?.phase === 'showing' ? beginExit(state) : { state, effects: [] };
    case 'dismiss_banner':
      if (state.banner === null) return { state, effects: [] };
      return { state: { ...state, banner: null }, effects: [cancelTimer(bannerKey(state.banner.id))] };
    case 'clear': return clear(state);
    case 'timer': return timer(state, event.key);
  }
}

function then(a: NotificationTransition, b: NotificationTransition): NotificationTransition {
  return { state: b.state, effects: [...a.effects, ...b.effects] };
}

// The upgrade banner persists until the upgrade is set up, so it cannot wait in the queue (it would hold every later
// notification back forever). It has its own slot: a newer upgrade notification replaces it, and once complete it
// reads 'Here is your riddle' for 1000 ms. Everything else queues.
function push(state: NotificationQueue, n: Notification): NotificationTransition {
  if (n.kind === 'upgrade_progress') {
    const effects: TimerEffect[] = state.banner ? [cancelTimer(bannerKey(state.banner.id))] : [];
    const ms = notificationDuration(n);
    if (ms !== null) effects.push(startTimer(bannerKey(n.id), ms));
    return { state: { ...state, banner: n }, effects };
  }
  const known = state.current?.notification.id === n.id || state.queue.some((q) => q.id === n.id);
  if (known) return { state, effects: [] };
  if (state.current === null) return show(state, n);
  return { state: { ...state, queue: [...state.queue, n] }, effects: [] };
}

function show(state: NotificationQueue, n: QueuedNotification): NotificationTransition {
  const ms = notificationDuration(n) ?? 0;
  return { state: { ...state, current: { notification: n, phase: 'showing' } }, effects: [startTimer(showKey(n.id), ms)] };
}

function beginExit(state: NotificationQueue): NotificationTransition {
  if (state.current === null) return { state, effects: [] };
  const id = state.current.notification.id;
  return {
    state: { ...state, current: { ...state.current, phase: 'exiting' } },
    effects: [cancelTimer(showKey(id)), startTimer(exitKey(id), NOTIFICATION_EXIT_MS)],
  };
}

function showNext(state: NotificationQueue): NotificationTransition {
  const [head, ...rest] = state.queue;
  const emptied = { ...state, current: null, queue: rest };
  return head === undefined ? { state: emptied, effects: [] } : show(emptied, head);
}

function timer(state: NotificationQueue, key: string): NotificationTransition {
  const current = state.current;
  if (current !== null) {
    const id = current.notification.id;
    if (current.phase === 'showing' && key === showKey(id)) return beginExit(state);
    if (current.phase === 'exiting' && key === exitKey(id)) return showNext(state);
  }
  if (state.banner !== null && key === bannerKey(state.banner.id)) return { state: { ...state, banner: null }, effects: [] };
  return { state, effects: [] };
}

function clear(state: NotificationQueue): NotificationTransition {
  const effects: TimerEffect[] = [];
  if (state.current) {
    const id = state.current.notification.id;
    effects.push(cancelTimer(state.current.phase === 'showing' ? showKey(id) : exitKey(id)));
  }
  if (state.banner) effects.push(cancelTimer(bannerKey(state.banner.id)));
  return { state: EMPTY_NOTIFICATIONS, effects };
}
