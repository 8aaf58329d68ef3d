// The Assemble banner (game spec §4): 'selected / maxRequired'. It persists for the whole moment: in game while the
// team is chosen, and on MOMENT COMPLETE with the team that was saved.
import { assembleBanner } from '../../../engine/client/game-screen/assemble.js';
import type { PlayModel } from '../../../engine/client/game-screen/model.js';
import { GAME_TEXT } from './game-text.js';
import './assemble-banner.css';

export function AssembleBanner({ m }: { m: PlayModel }) {
  const banner = assembleBanner(m);
  if (!banner) return null;
  return (
    <p className="assemble-banner" data-testid="assemble-banner" role="status" aria-label={`${banner.selected} of ${banner.max} characters selected`}>
      {GAME_TEXT.selected(banner.selected, banner.max)}
    </p>
  );
}
