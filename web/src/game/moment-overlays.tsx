// The overlays of a moment: notifications (their durations and the upgrade banner come from the shared queue), the
// award display (5000 ms each) and the equipment forging (character card 3000 ms, then item card 5000 ms).
import type { PlayModel } from '../../../engine/client/game-screen/model.js';
import { displayNotification } from '../../../engine/client/notification-queue.js';
import { GAME_TEXT } from './game-text.js';

/**
 * The detail lines that say something the notification's text does not: the server's message often names the
 * sacrificed properties or the one modifier already ('Ferrule: Upgraded to Golden: ...' over 'Ferrule (Golden):
 * Upgraded to Golden: ...'), and the screenshots showed them twice.
 */
export function newDetails(text: string, details: readonly string[]): string[] {
  return details.filter((d) => {
    const rest = d.split(': ').slice(1).join(': ');
    return !text.includes(d) && !(rest && text.includes(rest));
  });
}

export function NotificationBanner({ m, onDismiss }: { m: PlayModel; onDismiss: () => void }) {
  const cur = m.notifications.current;
  const banner = m.notifications.banner;
  // The live region stays in place (empty between notifications): a screen reader announces what appears in it, and the
  // phone layout measures it (use-caption-room.ts).
  const shown = cur ? displayNotification(cur.notification) : null;
  const up = banner ? displayNotification(banner) : null;
  return (
    <div className="notifications" aria-live="polite">
      {up ? <p className="notification notification--banner" data-testid="upgrade-banner">{up.text}</p> : null}
      {shown && cur ? (
        <button
          type="button"
          className={`notification notification--${cur.notification.kind}${cur.phase === 'exiting' ? ' is-exiting' : ''}`}
          data-testid="notification"
          data-kind={cur.notification.kind}
          onClick={onDismiss}
        >
          <span className="notification__text">{shown.text}</span>
          {shown.badge ? <span className="notification__badge">{shown.badge}</span> : null}
          {newDetails(shown.text, shown.details).map((d) => <span key={d} className="notification__detail">{d}</span>)}
        </button>
      ) : null}
    </div>
  );
}

export function AwardOverlay({ m, onDismiss }: { m: PlayModel; onDismiss: () => void }) {
  const a = m.awardShown.current;
  if (!a) return null;
  return (
    <div className="game-overlay game-overlay--award" data-testid="award-overlay" onClick={onDismiss} role="presentation">
      <div className="award-card" role="status">
        <p className="award-card__eyebrow">{a.label}</p>
        {a.text ? <p className="award-card__text">{a.text}</p> : null}
      </div>
    </div>
  );
}

export function ForgingOverlay({ m, onClose }: { m: PlayModel; onClose: () => void }) {
  const f = m.forging;
  if (f.phase === 'hidden') return null;
  const character = m.team.find((c) => c.id === f.characterId);
  const item = m.items.find((i) => i.available_item_id === f.itemId)
    ?? m.team.flatMap((c) => c.items).map((name) => ({ available_item_name: name }))[0];
  const isCharacter = f.phase === 'character';
  // The character's card picture, then the item's (the output's equipment image, else the item card's own).
  const pictures = m.view?.card_images ?? {};
  const image = isCharacter ? (f.characterId ? pictures[f.characterId] : undefined) : (f.imageUrl || (f.itemId ? pictures[f.itemId] : undefined));
  return (
    <div className="game-overlay game-overlay--forging" data-testid="forging-overlay" data-phase={f.phase} onClick={onClose} role="presentation">
      <div className={`forging-card forging-card--${f.phase}`} role="status" key={f.phase}>
        <p className="award-card__eyebrow">{GAME_TEXT.forging}</p>
        {image ? <img className="forging-card__image" src={image} alt="" /> : null}
        <p className="award-card__text">{isCharacter ? character?.name ?? '' : item?.available_item_name ?? ''}</p>
      </div>
    </div>
  );
}
