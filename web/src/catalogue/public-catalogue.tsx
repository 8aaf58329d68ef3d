// The public catalogue (/browse signed out, accounts spec §2): a hero carousel and the static catalogue file's
// stories. A card shows its name and 'Coming Soon' when flagged, and on hover '{n}% Recommended', the rating, an
// approximate duration, an HD badge, genre tags and 'Sign in to play →'. A card click (or the hero's 'More Info')
// opens the sign-in modal growing out of what was clicked; the card's story becomes the pending story.
import { useSignIn } from '../account/sign-in-context.js';
import { useStaticCatalogue } from '../api/queries.js';
import { Button } from '../ui/button.js';
import { Spinner } from '../ui/spinner.js';
import { CATALOGUE_TEXT as T, catalogueDate } from './catalogue-text.js';
import { HeroCarousel } from './hero-carousel.js';
import { StoryCard } from './story-card.js';
import { PublicStoryFacts } from './story-facts.js';
import './catalogue.css';

export function PublicCatalogue() {
  const catalogue = useStaticCatalogue();
  const openSignIn = useSignIn();
  const stories = catalogue.data?.stories ?? [];
  const hero = stories.find((s) => !s.is_coming_soon) ?? stories[0];
  const heroImages = stories.flatMap((s) => (s.sampleImages.length ? s.sampleImages : [s.background_image]));
  return (
    <div className="catalogue" data-testid="public-catalogue">
      <section className="catalogue-hero" aria-labelledby="hero-title">
        <HeroCarousel images={heroImages} label="catalogue" />
        <div className="catalogue-hero__shade" aria-hidden="true" />
        <div className="catalogue-hero__content">
          <h1 id="hero-title" className="catalogue-hero__title">Stories you play with your voice</h1>
          <p className="catalogue-hero__tagline">{T.tagline}</p>
          <div className="catalogue-hero__actions">
            <Button variant="primary" size="lg" onClick={(e) => openSignIn({ origin: e.currentTarget.getBoundingClientRect() })}>Sign in to play</Button>
            {hero ? <Button variant="secondary" size="lg" onClick={(e) => openSignIn({ origin: e.currentTarget.getBoundingClientRect(), storyId: hero.id })}>{T.moreInfo}</Button> : null}
          </div>
        </div>
      </section>
      <section className="catalogue-section page" aria-labelledby="stories-title">
        <h2 id="stories-title" className="catalogue-section__title">Stories</h2>
        {catalogue.isPending ? <div className="catalogue__status"><Spinner label={T.loading} /><span aria-hidden="true">{T.loading}</span></div> : null}
        {catalogue.isError || (catalogue.isSuccess && stories.length === 0) ? <p className="catalogue__status">{T.noStories}</p> : null}
        <ul className="catalogue-grid">
          {stories.map((s) => (
            <li key={s.id}>
              <StoryCard story={s} hoverText={T.signInToPlay} onOpen={(story, rect) => openSignIn({ origin: rect, storyId: story.id })}>
                <PublicStoryFacts story={s} />
              </StoryCard>
            </li>
          ))}
        </ul>
        <div className="catalogue__footnote">
          <p>{T.signInToTrack}</p>
          {catalogue.data ? <p className="catalogue__updated">{T.lastUpdated(catalogueDate(catalogue.data.lastUpdated))}</p> : null}
        </div>
      </section>
    </div>
  );
}
