// The background (place and moment images) and the character's visual, crossfading (game spec §2, §9): with several
// visuals the character rotates every 15 s, remembering the last 3 shown so it does not repeat at once.
import { useEffect, useState } from 'react';
import './visuals.css';

export const VISUAL_ROTATE_MS = 15_000;
export const RECENT_MEMORY = 3;

/** The next visual to show: the first not among the recent ones, else the one after the current. */
export function nextVisual(count: number, current: number, recent: readonly number[]): number {
  for (let step = 1; step <= count; step++) {
    const i = (current + step) % count;
    if (!recent.includes(i)) return i;
  }
  return (current + 1) % Math.max(1, count);
}

function useRotation(count: number): number {
  const [state, setState] = useState({ index: 0, recent: [] as number[] });
  useEffect(() => {
    if (count < 2) return;
    const t = setInterval(() => {
      setState((s) => {
        const recent = [...s.recent, s.index].slice(-Math.min(RECENT_MEMORY, count - 1));
        return { index: nextVisual(count, s.index, recent), recent };
      });
    }, VISUAL_ROTATE_MS);
    return () => clearInterval(t);
  }, [count]);
  return count ? state.index % count : 0;
}

function Crossfade({ urls, index, className }: { urls: readonly string[]; index: number; className: string }) {
  return (
    <div className={className} aria-hidden="true">
      {urls.map((u, i) => <img key={u} src={u} alt="" className={i === index ? 'is-shown' : ''} />)}
    </div>
  );
}

export function Visuals({ places, characters, speaking }: { places: readonly string[]; characters: readonly string[]; speaking: boolean }) {
  const p = useRotation(places.length);
  const c = useRotation(characters.length);
  return (
    <div className="visuals">
      <Crossfade urls={places} index={p} className="visuals__place" />
      <div className="visuals__shade" />
      {characters.length ? <Crossfade urls={characters} index={c} className={`visuals__character${speaking ? ' is-speaking' : ''}`} /> : null}
    </div>
  );
}
