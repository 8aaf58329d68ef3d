import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulator } from './timers.js';
import {
  BURN_ANIMATION_MS, REDEMPTION_STATES, type RedemptionEvent, RETRIEVING_AFTER_MS,
  SELECTING_AFTER_MS, SUCCESS_BANNER_MS, initialRedemption, redeemButton, showsPicker, transitionRedemption,
} from './redemption-flow.js';

const driver = () => new Simulator(transitionRedemption, initialRedemption('t1'));

const selecting = () => driver().send({ type: 'redeem' }).wait(BURN_ANIMATION_MS + RETRIEVING_AFTER_MS + SELECTING_AFTER_MS);

describe('redemption flow', () => {
  it('uses the spec timings', () => {
    expect([BURN_ANIMATION_MS, RETRIEVING_AFTER_MS, SELECTING_AFTER_MS, SUCCESS_BANNER_MS]).toEqual([2000, 1500, 2500, 3000]);
    expect(REDEMPTION_STATES).toEqual(['normal', 'retrieving', 'selecting', 'confirming', 'creating']);
  });

  it("burns for 2000 ms with 'Redeeming...' disabled, then retrieving 1500 ms later and selecting 2500 ms after that", () => {
    const d = driver();
    expect(redeemButton(d.state)).toEqual({ label: 'Redeem', disabled: false });
    d.send({ type: 'redeem' });
    expect(redeemButton(d.state)).toEqual({ label: 'Redeeming...', disabled: true });
    expect(d.state.step).toBe('burning');
    d.wait(1999);
    expect(d.state.step).toBe('burning');
    d.wait(1);
    expect(d.state).toMatchObject({ state: 'normal', step: 'starting' });
    expect(d.effects).toContainEqual({ type: 'load_cards', ticketId: 't1' });
    d.wait(1499);
    expect(d.state.state).toBe('normal');
    d.wait(1);
    expect(d.state.state).toBe('retrieving');
    expect(showsPicker(d.state)).toBe(true);
    d.wait(2499);
    expect(d.state.state).toBe('retrieving');
    d.wait(1);
    expect(d.state.state).toBe('selecting');
  });

  it('refuses a second Redeem while the first is under way', () => {
    const d = driver().send({ type: 'redeem' }).wait(2500).send({ type: 'redeem' });
    expect(d.refused).toBe('redemption/busy');
  });

  it('choose -> confirming (non-empty card id only), confirm -> creating', () => {
    const d = selecting();
    d.send({ type: 'choose', cardId: '   ' });
    expect(d.refused).toBe('redemption/empty_card');
    expect(d.state.state).toBe('selecting');
    d.send({ type: 'confirm' });
    expect(d.refused).toBe('redemption/nothing_to_confirm');
    d.send({ type: 'choose', cardId: 'card-1' });
    expect(d.state).toMatchObject({ state: 'confirming', selectedCardId: 'card-1' });
    d.send({ type: 'confirm' });
    expect(d.state.state).toBe('creating');
    expect(d.effects).toEqual([{ type: 'redeem_card', ticketId: 't1', cardId: 'card-1' }]);
  });

  it('cancel returns to selecting and clears the selection', () => {
    const d = selecting().send({ type: 'choose', cardId: 'card-1' }).send({ type: 'cancel' });
    expect(d.state).toMatchObject({ state: 'selecting', selectedCardId: null });
  });

  it('a failure in creating returns to selecting, logged, with no message', () => {
    const d = selecting().send({ type: 'choose', cardId: 'card-1' }).send({ type: 'confirm' });
    d.send({ type: 'failed', message: 'Failed to create permanent character' });
    expect(d.state).toMatchObject({ state: 'selecting', selectedCardId: null });
    expect(d.effects).toEqual([{ type: 'log', message: 'Failed to create permanent character' }]);
  });

  it('success returns to the plain ticket view with a 3000 ms banner and refetches the tickets', () => {
    const d = selecting().send({ type: 'choose', cardId: 'card-1' }).send({ type: 'confirm' }).send({ type: 'succeeded' });
    expect(d.state).toMatchObject({ state: 'normal', step: 'idle', bannerVisible: true, redeemed: true });
    expect(d.effects).toContainEqual({ type: 'refetch_tickets' });
    expect(redeemButton(d.state)).toBeNull();
    d.wait(2999);
    expect(d.state.bannerVisible).toBe(true);
    d.wait(1);
    expect(d.state.bannerVisible).toBe(false);
    d.send({ type: 'redeem' });
    expect(d.refused).toBe('redemption/already_redeemed');
  });

  it('reset returns to normal from anywhere and its stale timers change nothing', () => {
    for (const at of [500, 2500, 4000, 6000]) {
      const d = driver().send({ type: 'redeem' }).wait(at).send({ type: 'reset' });
      expect(d.state).toEqual(initialRedemption('t1'));
      d.wait(10_000);
      expect(d.state).toEqual(initialRedemption('t1'));
    }
  });

  it('property: whatever the player does, the state is one of the five and a selection exists only when confirming or creating', () => {
    const event = fc.oneof(
      fc.constantFrom<RedemptionEvent>({ type: 'redeem' }, { type: 'confirm' }, { type: 'cancel' }, { type: 'succeeded' }, { type: 'reset' }, { type: 'failed', message: 'x' }),
      fc.string({ maxLength: 3 }).map((cardId): RedemptionEvent => ({ type: 'choose', cardId })),
      fc.integer({ min: 0, max: 4000 }).map((ms) => ms),
    );
    fc.assert(fc.property(fc.array(event, { maxLength: 40 }), (events) => {
      const d = driver();
      for (const e of events) {
        if (typeof e === 'number') d.wait(e); else d.send(e);
        expect(REDEMPTION_STATES).toContain(d.state.state);
        expect(d.state.selectedCardId !== null).toBe(d.state.state === 'confirming' || d.state.state === 'creating');
        if (d.state.selectedCardId !== null) expect(d.state.selectedCardId.trim()).not.toBe('');
      }
    }));
  });
});
