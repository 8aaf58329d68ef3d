// A story card of the catalogues: the story's art and name in a tilt card, a 'Coming Soon' badge when flagged.
// The whole card is one button (the public catalogue opens the sign-in modal from it, the personal one the story).
import type { ReactNode } from 'react';
import type { CatalogueStory } from '../../../engine/schema/views.js';
import { TiltCard } from '../ui/tilt-card.js';
import './story-card.css';

export type StoryCardProps = {
  story: CatalogueStory;
  /** Called with the card's rect, for a modal to grow out of it. */
  onOpen: (story: CatalogueStory, rect: DOMRect) => void;
  /** What the card says on hover and focus ('Sign in to play →'). */
  hoverText?: ReactNode;
  children?: ReactNode;
};

export function StoryCard({ story, onOpen, hoverText, children }: StoryCardProps) {
  return (
    <TiltCard className="story-card">
      <button type="button" className="story-card__button" onClick={(e) => onOpen(story, e.currentTarget.getBoundingClientRect())} data-testid="story-card" data-story-id={story.id}>
        <img className="story-card__art" src={story.background_image} alt="" loading="lazy" decoding="async" />
        <span className="story-card__shade" aria-hidden="true" />
        {story.is_coming_soon ? <span className="story-card__badge">Coming Soon</span> : null}
        <span className="story-card__text">
          <span className="story-card__name">{story.name}</span>
          {children}
          {hoverText ? <span className="story-card__hover">{hoverText}</span> : null}
        </span>
      </button>
    </TiltCard>
  );
}
