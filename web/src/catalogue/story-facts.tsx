// The facts a story card shows (accounts spec §2): on the public catalogue on hover ('{n}% Recommended', the rating,
// an approximate duration, an HD badge, genre tags); on the personal catalogue always (the age rating label,
// '15 minutes per run', an HD badge, genre tags).
import { durationText, ratingLabel, recommendedText, RUN_LENGTH_TEXT } from '../../../engine/catalogue/display.js';
import type { CatalogueStory } from '../../../engine/schema/views.js';
import './story-facts.css';

export function HdBadge() {
  return <span className="story-facts__hd" aria-label="HD">HD</span>;
}

export function GenreTags({ story, max = 3 }: { story: CatalogueStory; max?: number }) {
  if (story.genre_tags.length === 0) return null;
  return (
    <ul className="story-facts__tags" aria-label="Genres">
      {story.genre_tags.slice(0, max).map((t) => <li key={t.value}>{t.value}</li>)}
    </ul>
  );
}

/** The public card's hover details. */
export function PublicStoryFacts({ story }: { story: CatalogueStory }) {
  const recommended = recommendedText(story.positive_count, story.negative_count);
  return (
    <span className="story-facts" data-testid="story-facts">
      <span className="story-facts__line">
        {recommended ? <span className="story-facts__recommended">{recommended}</span> : null}
        <span className="story-facts__rating">{ratingLabel(story.esbr_rating)}</span>
        <span>{durationText(story.estimated_minute_duration)}</span>
        <HdBadge />
      </span>
      <GenreTags story={story} />
    </span>
  );
}

/** The personal card's facts. */
export function PersonalStoryFacts({ story }: { story: CatalogueStory }) {
  return (
    <span className="story-facts story-facts--always" data-testid="story-facts">
      <span className="story-facts__line">
        <span className="story-facts__rating">{ratingLabel(story.esbr_rating)}</span>
        <span>{RUN_LENGTH_TEXT.tile}</span>
        <HdBadge />
      </span>
      <GenreTags story={story} />
    </span>
  );
}
