import { describe, expect, it } from 'vitest';
import { Simulator } from './timers.js';
import {
  GOLDEN_TICKET_FADE_MS, GOLDEN_TICKET_POPUP_MS, GOLDEN_TICKET_TEXT, type GoldenTicketPopup,
  goldenTicketVisible, transitionGoldenTicketPopup,
} from './golden-ticket-popup.js';

const HIDDEN: GoldenTicketPopup = 'hidden';
const driver = () => new Simulator(transitionGoldenTicketPopup, HIDDEN);

describe('golden ticket award popup', () => {
  it('reads the three spec texts', () => {
    expect(GOLDEN_TICKET_TEXT).toEqual({
      title: 'GOLDEN TICKET EARNED!',
      body: 'Congratulations on your first Rank A! You can now permanently recruit this character!',
      hint: 'Visit the Catalogue to view and redeem your Golden Tickets',
    });
  });

  it('shows 8000 ms, fades 500 ms, then is gone', () => {
    expect([GOLDEN_TICKET_POPUP_MS, GOLDEN_TICKET_FADE_MS]).toEqual([8000, 500]);
    const d = driver().send({ type: 'awarded' });
    d.wait(7999);
    expect(d.state).toBe('shown');
    d.wait(1);
    expect(d.state).toBe('fading');
    expect(goldenTicketVisible(d.state)).toBe(true);
    d.wait(499);
    expect(d.state).toBe('fading');
    d.wait(1);
    expect(d.state).toBe('hidden');
  });

  it('dismisses on a backdrop click (through the same fade)', () => {
    const d = driver().send({ type: 'awarded' }).wait(1000).send({ type: 'backdrop_click' });
    expect(d.state).toBe('fading');
    d.wait(500);
    expect(d.state).toBe('hidden');
    d.wait(10_000);
    expect(d.state).toBe('hidden');
  });

  it('ignores a backdrop click when nothing shows', () => {
    expect(driver().send({ type: 'backdrop_click' }).state).toBe('hidden');
  });
});
