// The in-game sub-screen (game spec §2): opponents in a flipped fan at the top, the place and the speaking character
// crossfading in the middle with the captions, the player's characters and items at the bottom, the control bar
// (record button, typed input, menu), the battle indicator in battles, and the overlays of the moment.
import { useEffect, useRef, useState } from 'react';
import { cardState, indicatorOf, type PlayModel, visibleTeam } from '../../../engine/client/game-screen/model.js';
import { speakerName } from '../../../engine/client/game-screen/text.js';
import type { GameSession } from './game-session.js';
import { CardFan, type FanCard } from './card-fan.js';
import { AssembleBanner } from './assemble-banner.js';
import { Captions } from './captions.js';
import { ControlBar } from './control-bar.js';
import { GameMenu } from './game-menu.js';
import { GAME_TEXT } from './game-text.js';
import { mediaUrl } from './media.js';
import { AwardOverlay, ForgingOverlay } from './moment-overlays.js';
import { useCaptionRoom } from './use-caption-room.js';
import { Visuals } from './visuals.js';
import './in-game.css';

export function InGame({ session, m }: { session: GameSession; m: PlayModel }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const screenRef = useRef<HTMLElement>(null);
  const middleRef = useRef<HTMLDivElement>(null);
  useCaptionRoom(screenRef, middleRef);
  const v = m.view;
  const storyId = v?.blueprint_story_id ?? '';
  const indicator = indicatorOf(m);
  const team: FanCard[] = visibleTeam(m).map((c) => {
    const s = cardState(m, c.id);
    return {
      id: c.id, kind: 'character', title: c.name, image: v?.card_images[c.id], cardType: c.cardType, burning: s.burning, highlighted: s.highlighted,
      lines: [...c.items, ...c.properties].slice(0, 3),
      stats: [{ label: GAME_TEXT.attack, value: String(c.attack) }, { label: GAME_TEXT.health, value: `${Math.max(0, c.health)}/${c.maxHealth}` }],
    };
  });
  const items: FanCard[] = m.items.map((i) => ({
    id: i.available_item_id, kind: 'item', title: i.available_item_name, image: v?.card_images[i.available_item_id], lines: i.available_item_properties.slice(0, 2),
    stats: [{ label: GAME_TEXT.attack, value: `+${i.available_item_attack_bonus}` }, { label: GAME_TEXT.defense, value: `+${i.available_item_defense_bonus}` }],
  }));
  const opponents: FanCard[] = m.opponents.map((o) => ({
    id: o.opponent_id, kind: 'opponent', title: o.opponent_name, image: v?.card_images[o.opponent_id], defeated: o.current_health <= 0,
    stats: [
      ...(o.current_attack ? [{ label: GAME_TEXT.attack, value: String(o.current_attack) }] : []),
      { label: GAME_TEXT.health, value: `${Math.max(0, o.current_health)}/${o.base_health}` },
    ],
  }));

  // A bubble sound for each new line of the character; the perfect sound for a perfect answer.
  const seen = useRef(m.lines.length);
  const characterLines = m.lines.filter((l) => l.who === 'character').length;
  useEffect(() => {
    if (characterLines > seen.current) session.sounds.play('bubble');
    seen.current = characterLines;
  }, [characterLines, session]);

  const toggleMenu = (open: boolean) => {
    session.sounds.play(open ? 'opening' : 'closing');
    setMenuOpen(open);
  };

  const places = v ? [...v.place_image_details, ...v.moment_image_details].map((d) => mediaUrl(storyId, d.media_url)).filter((u): u is string => !!u) : [];
  const characters = v && !v.do_not_display_character ? v.character_image_details.map((d) => mediaUrl(storyId, d.media_url)).filter((u): u is string => !!u) : [];

  return (
    <section ref={screenRef} className="in-game" aria-label={v?.moment_name ?? ''} data-moment-type={v?.moment_type}>
      <Visuals places={places} characters={characters} speaking={m.speaking.speaking} />
      <header className="in-game__top">
        <p className="in-game__moment"><span>{v?.moment_type}</span> {v?.moment_name}</p>
        <AssembleBanner m={m} />
        {indicator ? <p className={`battle-indicator battle-indicator--${indicator.toLowerCase()}`} data-testid="battle-indicator" role="status">{indicator}</p> : null}
        {opponents.length ? <CardFan cards={opponents} flipped label="Opponents" /> : null}
      </header>
      <div ref={middleRef} className="in-game__middle">
        <Captions m={m} speaker={v ? speakerName(v) : null} onChoice={(text) => session.say(text)} />
      </div>
      <footer className="in-game__bottom">
        <div className="in-game__hand">
          <CardFan cards={team} label="Your characters" />
          {items.length ? <CardFan cards={items} label="Your items" /> : null}
        </div>
        <ControlBar session={session} m={m} onMenu={() => toggleMenu(true)} />
      </footer>
      <AwardOverlay m={m} onDismiss={() => session.ctrl.dispatch({ type: 'dismiss_award' })} />
      <ForgingOverlay m={m} onClose={() => session.ctrl.dispatch({ type: 'close_forging' })} />
      <GameMenu open={menuOpen} session={session} m={m} onClose={() => toggleMenu(false)} />
    </section>
  );
}
