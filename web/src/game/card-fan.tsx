// A fan of cards (game spec §9): the player's characters and items at the bottom, opponents flipped at the top. Cards
// overlap; on hover the fan opens so neighbours overlap by at most 40 px or 15% of a card's width (the smaller; less
// where the open fan would leave the screen, a tapped card on a phone keeping its hover), and
// below 800 px of container width the whole fan scales down, never under 0.75 (a card's text stays 12 px or more as
// drawn): a slot too narrow for its cards at that scale overlaps them more instead. Each card tilts (TiltCard).
import { type CSSProperties, type ReactNode, useLayoutEffect, useRef, useState } from 'react';
import { TiltCard } from '../ui/tilt-card.js';
import { CardGlyph } from './card-glyph.js';
import './card-fan.css';

export const CARD_WIDTH = 132;
export const FAN_FULL_WIDTH = 800;
/** The smallest a fan is drawn: a 99 px card, whose text (sized against --fan-scale in CSS) is still 12 px. */
export const FAN_MIN_SCALE = 0.75;
/** Closed fan: cards overlap by 45% of their width; open (hover): at most 40 px or 15%. */
export const CLOSED_OVERLAP = 0.45;
/** The most a closed fan overlaps its cards when its slot is narrow: a fifth of each covered card still shows. */
export const MAX_OVERLAP = 0.8;
export const OPEN_OVERLAP_PX = Math.min(40, 0.15 * CARD_WIDTH);
const FAN_DEG = 5;
/** The open fan stays this far inside the screen's edges. */
const SCREEN_MARGIN_PX = 4;

export type FanCard = {
  id: string;
  kind: 'character' | 'item' | 'opponent';
  title: string;
  image?: string | null;
  stats: readonly { label: string; value: string }[];
  lines?: readonly string[];
  burning?: boolean;
  highlighted?: boolean;
  /** An opponent at zero health: still in the fan (the battle's record), dimmed. */
  defeated?: boolean;
  cardType?: string;
};

export function fanScale(containerWidth: number): number {
  if (containerWidth >= FAN_FULL_WIDTH || containerWidth <= 0) return 1;
  return Math.max(FAN_MIN_SCALE, containerWidth / FAN_FULL_WIDTH);
}

/** The width a closed fan of n cards takes unscaled, with room for the tilt of its outer cards. */
export function fanRowWidth(n: number, overlap = CLOSED_OVERLAP): number {
  return CARD_WIDTH * (1 + Math.max(0, n - 1) * (1 - overlap)) * 1.08;
}

/**
 * The fan's scale: the game screen's (below 800 px, so both fans of the hand scale alike), and smaller still when the
 * fan's own slot cannot hold its cards (a phone's hand of four characters beside the items); never under 0.75.
 */
export function fitScale(screenWidth: number, slotWidth: number, n: number): number {
  const fit = slotWidth > 0 ? slotWidth / fanRowWidth(n) : 1;
  return Math.max(FAN_MIN_SCALE, Math.min(fanScale(screenWidth), fit));
}

/** How much the closed fan's cards overlap at that scale: 45%, more (up to 80%) when the slot is too narrow. */
export function fitOverlap(slotWidth: number, n: number, scale: number): number {
  if (n < 2 || slotWidth <= 0) return CLOSED_OVERLAP;
  const visible = (slotWidth / (scale * CARD_WIDTH * 1.08) - 1) / (n - 1);
  return Math.min(MAX_OVERLAP, Math.max(CLOSED_OVERLAP, 1 - visible));
}

/**
 * How far the open fan moves its cards apart (unscaled px, per card from the middle): to the spec's overlap, or less
 * when the open fan would run off the screen (`room`: px from the fan's middle to the nearer screen edge).
 */
export function fitSpread(n: number, scale: number, overlap: number, room: number): number {
  const wanted = Math.max(0, overlap * CARD_WIDTH - OPEN_OVERLAP_PX);
  if (n < 2) return wanted;
  const spare = room - (scale * fanRowWidth(n, overlap)) / 2;
  return Math.max(0, Math.min(wanted, (2 * spare) / ((n - 1) * scale)));
}

export function CardFan({ cards, flipped = false, label, empty }: { cards: readonly FanCard[]; flipped?: boolean; label: string; empty?: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [fit, setFit] = useState({ scale: 1, overlap: CLOSED_OVERLAP, spread: CLOSED_OVERLAP * CARD_WIDTH - OPEN_OVERLAP_PX });
  const n = cards.length;
  useLayoutEffect(() => {
    const own = ref.current;
    if (!own) return;
    const screen = own.closest('.in-game') ?? own;
    const update = () => {
      const scale = fitScale(screen.clientWidth, own.clientWidth, n);
      const overlap = fitOverlap(own.clientWidth, n, scale);
      const o = own.getBoundingClientRect();
      const middle = o.left + o.width / 2;
      const room = Math.min(middle, document.documentElement.clientWidth - middle) - SCREEN_MARGIN_PX;
      const spread = fitSpread(n, scale, overlap, room);
      setFit((f) => (f.scale === scale && f.overlap === overlap && f.spread === spread ? f : { scale, overlap, spread }));
    };
    const ro = new ResizeObserver(update);
    ro.observe(screen);
    ro.observe(own);
    update();
    return () => ro.disconnect();
  }, [n]);
  // A fan packed tighter than usual tilts its cards less: their tops lean out past the fan's ends by the tilt.
  const tilt = FAN_DEG * Math.min(1, (1 - fit.overlap) / (1 - CLOSED_OVERLAP));
  return (
    <div
      ref={ref}
      className={`card-fan${flipped ? ' card-fan--flipped' : ''}${fit.scale < 0.9 ? ' card-fan--compact' : ''}`}
      role="list"
      aria-label={label}
      style={{ '--fan-scale': fit.scale, '--fan-grow': 1 + Math.max(0, n - 1) * (1 - MAX_OVERLAP), '--card-w': `${CARD_WIDTH}px`, '--overlap-closed': `${-fit.overlap * CARD_WIDTH}px`, '--spread': `${fit.spread}px` } as CSSProperties}
    >
      <div className="card-fan__row">
        {n === 0 && empty ? <p className="card-fan__empty">{empty}</p> : null}
        {cards.map((c, i) => {
          const offset = i - (n - 1) / 2;
          const rot = (flipped ? -1 : 1) * offset * tilt;
          return (
            <div
              key={c.id}
              role="listitem"
              className="card-fan__slot"
              style={{ '--rot': `${rot}deg`, '--lift': `${Math.abs(offset) * 6}px`, '--offset': offset, zIndex: i + 1 } as CSSProperties}
            >
              <TiltCard
                className={`game-card game-card--${c.kind}${c.burning ? ' is-burning' : ''}${c.highlighted ? ' is-highlighted' : ''}${c.defeated ? ' is-defeated' : ''}`}
                data-testid={`card-${c.kind}`}
                data-card-id={c.id}
                data-burning={c.burning ? 'true' : undefined}
                data-defeated={c.defeated ? 'true' : undefined}
                data-card-type={c.cardType}
                tabIndex={0}
                aria-label={`${c.title}: ${c.stats.map((s) => `${s.label} ${s.value}`).join(', ')}`}
              >
                <div className="game-card__art">
                  {c.image ? <img src={c.image} alt="" loading="lazy" /> : <CardGlyph kind={c.kind} className="game-card__glyph" />}
                </div>
                <div className="game-card__body">
                  <p className="game-card__title">{c.title}</p>
                  {c.lines?.length ? <p className="game-card__lines">{c.lines.join(' · ')}</p> : null}
                  <div className="game-card__stats">
                    {c.stats.map((s) => (
                      <span key={s.label} className="game-card__stat" data-stat={s.label}>
                        <b>{s.value}</b> {s.label}
                      </span>
                    ))}
                  </div>
                </div>
              </TiltCard>
            </div>
          );
        })}
      </div>
    </div>
  );
}
