// The hero carousel (accounts spec §4 "Hero carousel", §9): the images rotate every 3000 ms when there is more than
// one, cross-fading. With reduced motion the images do not rotate (only the first shows), and the player can pause
// and resume the rotation (WCAG 2.2.2: moving content can be paused). Hidden images are decorative; a failed image
// is ignored (accounts spec §8 "Image preload failure").
import { useEffect, useState } from 'react';
import { useReducedMotion } from '../ui/settings.js';
import './hero-carousel.css';

export const HERO_INTERVAL_MS = 3000;

export function HeroCarousel({ images, label, loadingText }: { images: readonly string[]; label: string; /** Shown until the first image has loaded (or failed). */ loadingText?: string }) {
  const reduced = useReducedMotion();
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const [firstSettled, setFirstSettled] = useState(false);
  const unique = [...new Set(images.filter(Boolean))];
  const rotating = unique.length > 1 && !reduced && !paused;

  useEffect(() => {
    if (!rotating) return;
    const t = window.setInterval(() => setIndex((i) => i + 1), HERO_INTERVAL_MS);
    return () => window.clearInterval(t);
  }, [rotating]);

  const shown = unique.length ? index % unique.length : 0;
  return (
    <div className="hero-carousel" data-testid="hero-carousel" data-index={shown} data-count={unique.length}>
      {unique.map((src, i) => (
        <img key={src} className={`hero-carousel__image${i === shown ? ' hero-carousel__image--shown' : ''}`} src={src} alt="" decoding="async" fetchPriority={i === 0 ? 'high' : 'low'} onLoad={i === 0 ? () => setFirstSettled(true) : undefined} onError={i === 0 ? () => setFirstSettled(true) : undefined} />
      ))}
      {loadingText && unique.length > 0 && !firstSettled ? <p className="hero-carousel__loading" role="status">{loadingText}</p> : null}
      {unique.length > 1 && !reduced ? (
        <button type="button" className="hero-carousel__pause" onClick={() => setPaused((p) => !p)} aria-pressed={paused} aria-label={paused ? `Play the ${label} images` : `Pause the ${label} images`}>
          <span aria-hidden="true">{paused ? '▶' : '❚❚'}</span>
        </button>
      ) : null}
    </div>
  );
}
