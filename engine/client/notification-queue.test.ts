import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Notification, NOTIFICATION_MS } from '../schema/notification.js';
import { Simulator } from './timers.js';
import {
  EMPTY_NOTIFICATIONS, NOTIFICATION_EXIT_MS, displayNotification,
  notificationDuration, transitionNotifications,
} from './notification-queue.js';

const perfect = (id: string): Notification => ({ kind: 'perfect', id, message: 'Perfect answer!' });
const free = (id: string): Notification => ({ kind: 'free', id, message: 'Free!' });
const rank = (id: string, r: string, first: boolean): Notification => ({ kind: 'rank_achieved', id, message: '', rankData: { rank: r, isFirstTimeAchieved: first } });
const upgrade = (id: string, isComplete: boolean): Notification => ({
  kind: 'upgrade_progress', id, message: 'Character: Ada • Bet: 2 • Difficulty: ?', upgradeData: { character: 'Ada', bet: 2, difficulty: isComplete ? 'hard' : '', isComplete },
});

const driver = () => new Simulator(transitionNotifications, EMPTY_NOTIFICATIONS);
const shown = (d: ReturnType<typeof driver>): string | null => d.state.current?.notification.id ?? null;

describe('notification durations', () => {
  it('are the spec numbers per kind', () => {
    expect(notificationDuration(perfect('p'))).toBe(3000);
    expect(notificationDuration(free('f'))).toBe(2000);
    expect(notificationDuration({ kind: 'sacrificed_properties', id: 's', message: 'x', properties: ['brave'] })).toBe(4000);
    expect(notificationDuration(rank('r', 'A', true))).toBe(5000);
    expect(notificationDuration({ kind: 'card_modifier', id: 'c', message: 'x', player_moment_id: 'pm', applied_modifiers: [] })).toBe(3000);
    expect(notificationDuration(upgrade('u', true))).toBe(1000);
    expect(notificationDuration(upgrade('u', false))).toBeNull();
    expect(NOTIFICATION_EXIT_MS).toBe(500);
  });

  it('honour a notification’s own duration', () => {
    expect(notificationDuration({ ...perfect('p'), duration: 1234 })).toBe(1234);
  });
});

describe('notification display', () => {
  it("reads 'RANK X ACHIEVED!' with 'FIRST TIME!' the first time", () => {
    expect(displayNotification(rank('r', 'a ', true))).toEqual({ text: 'RANK A ACHIEVED!', details: [], badge: 'FIRST TIME!' });
    expect(displayNotification(rank('r', '3', false))).toEqual({ text: 'RANK B ACHIEVED!', details: [], badge: null });
  });

  it("reads 'Here is your riddle' once the upgrade is complete, else its progress", () => {
    expect(displayNotification(upgrade('u', true)).text).toBe('Here is your riddle');
    expect(displayNotification(upgrade('u', false)).text).toBe('Character: Ada • Bet: 2 • Difficulty: ?');
  });

  it("reads 'Free!' for a cache hit and lists card modifiers", () => {
    expect(displayNotification({ kind: 'free', id: 'f', message: '' }).text).toBe('Free!');
    const mod = displayNotification({
      kind: 'card_modifier', id: 'c', message: 'Card modifiers: Ada', player_moment_id: 'pm',
      applied_modifiers: [{ character_name: 'Ada', card_type: 'Golden', description: '+2 attack' }],
    });
    expect(mod.details).toEqual(['Ada (Golden): +2 attack']);
  });
});

describe('notification queue', () => {
  it('shows one at a time, in order, each for its duration plus the 500 ms exit buffer', () => {
    const d = driver().send({ type: 'push', notifications: [perfect('p'), free('f'), rank('r', 'B', false)] });
    expect(shown(d)).toBe('p');
    d.wait(NOTIFICATION_MS.perfect - 1);
    expect(d.state.current?.phase).toBe('showing');
    d.wait(1);
    expect(d.state.current).toMatchObject({ phase: 'exiting', notification: { id: 'p' } });
    d.wait(499);
    expect(shown(d)).toBe('p');
    d.wait(1);
    expect(shown(d)).toBe('f');
    d.wait(2000 + 500);
    expect(shown(d)).toBe('r');
    d.wait(5000 + 500);
    expect(d.state).toEqual(EMPTY_NOTIFICATIONS);
  });

  it('ignores a notification whose id is already shown or queued', () => {
    const d = driver().send({ type: 'push', notifications: [perfect('p'), perfect('p'), free('f'), free('f')] });
    expect(d.state.queue.map((n) => n.id)).toEqual(['f']);
  });

  it('lets the player dismiss the current one early (it still leaves through the exit buffer)', () => {
    const d = driver().send({ type: 'push', notifications: [perfect('p'), free('f')] }).wait(100);
    d.send({ type: 'dismiss' });
    expect(d.state.current?.phase).toBe('exiting');
    d.wait(500);
    expect(shown(d)).toBe('f');
  });

  it('keeps the upgrade banner in its own slot: it persists until complete, then lasts 1000 ms', () => {
    const d = driver().send({ type: 'push', notifications: [upgrade('u1', false), perfect('p')] });
    expect(d.state.banner?.id).toBe('u1');
    expect(shown(d)).toBe('p');
    d.wait(60_000);
    expect(d.state.banner?.id).toBe('u1');
    expect(shown(d)).toBeNull();
    d.send({ type: 'push', notifications: [upgrade('u2', true)] });
    expect(d.state.banner?.id).toBe('u2');
    d.wait(999);
    expect(d.state.banner?.id).toBe('u2');
    d.wait(1);
    expect(d.state.banner).toBeNull();
  });

  it('clear empties everything and cancels its timers', () => {
    const d = driver().send({ type: 'push', notifications: [perfect('p'), free('f'), upgrade('u', true)] });
    d.send({ type: 'clear' });
    expect(d.state).toEqual(EMPTY_NOTIFICATIONS);
    expect(d.wheel.timers).toEqual([]);
  });

  it('property: every pushed notification is shown exactly once, in push order, whatever the timing', () => {
    const kinds = fc.constantFrom('perfect', 'free', 'rank');
    const script = fc.array(fc.tuple(kinds, fc.integer({ min: 0, max: 7000 })), { maxLength: 20 });
    fc.assert(fc.property(script, (steps) => {
      const d = driver();
      const seen: string[] = [];
      const note = (): void => {
        const id = shown(d);
        if (id !== null && seen[seen.length - 1] !== id) seen.push(id);
      };
      steps.forEach(([kind, gap], i) => {
        const id = `n${i}`;
        const n = kind === 'perfect' ? perfect(id) : kind === 'free' ? free(id) : rank(id, 'C', false);
        d.send({ type: 'push', notifications: [n] });
        note();
        for (let t = 0; t < gap; t += 250) { d.wait(Math.min(250, gap - t)); note(); }
      });
      for (let t = 0; t < 6000 * (steps.length + 1); t += 250) { d.wait(250); note(); }
      expect(seen).toEqual(steps.map((_, i) => `n${i}`));
      expect(d.state.current).toBeNull();
    }), { numRuns: 100 });
  });
});
