// The tilt card effect (accounts spec §9): the card leans toward the pointer up to 8 degrees and grows to 1.05, with
// a 300 ms transition; keyboard focus grows it too. Off with reduced motion (it then only lifts its border).
import { type CSSProperties, type HTMLAttributes, type ReactNode, useRef } from 'react';
import { useReducedMotion } from './settings.js';
import './tilt-card.css';

export const TILT_MAX_DEG = 8;
export const TILT_SCALE = 1.05;
export const TILT_MS = 300;

export type TiltCardProps = HTMLAttributes<HTMLDivElement> & { children: ReactNode };

export function TiltCard({ children, className, style, ...rest }: TiltCardProps) {
  const ref = useRef<HTMLDivElement>(null);
  const reduced = useReducedMotion();

  const onPointerMove = (e: React.PointerEvent<HTMLDivElement>) => {
    if (reduced || e.pointerType === 'touch' || !ref.current) return;
    const r = ref.current.getBoundingClientRect();
    const px = (e.clientX - r.left) / r.width - 0.5;
    const py = (e.clientY - r.top) / r.height - 0.5;
    ref.current.style.setProperty('--tilt-x', `${(-py * 2 * TILT_MAX_DEG).toFixed(2)}deg`);
    ref.current.style.setProperty('--tilt-y', `${(px * 2 * TILT_MAX_DEG).toFixed(2)}deg`);
    ref.current.style.setProperty('--glare-x', `${((px + 0.5) * 100).toFixed(1)}%`);
    ref.current.style.setProperty('--glare-y', `${((py + 0.5) * 100).toFixed(1)}%`);
  };
  const onPointerLeave = () => {
    ref.current?.style.setProperty('--tilt-x', '0deg');
    ref.current?.style.setProperty('--tilt-y', '0deg');
  };

  return (
    <div
      ref={ref}
      className={['tilt-card', reduced ? 'tilt-card--still' : '', className ?? ''].filter(Boolean).join(' ')}
      style={{ ...style, '--tilt-duration': `${reduced ? 0 : TILT_MS}ms` } as CSSProperties}
      onPointerMove={onPointerMove}
      onPointerLeave={onPointerLeave}
      {...rest}
    >
      {children}
      <span className="tilt-card__glare" aria-hidden="true" />
    </div>
  );
}
