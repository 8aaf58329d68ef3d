// The public catalogue (/browse signed out, accounts spec §2): the static catalogue file's stories; a card opens the
// sign-in modal growing out of it, and its story becomes the pending story.
import { useSignIn } from '../account/sign-in-context.js';
import { useStaticCatalogue } from '../api/queries.js';
import { Button } from '../ui/button.js';
import { Spinner } from '../ui/spinner.js';
import { CATALOGUE_TEXT as T, catalogueDate } from './catalogue-text.js';
import { StoryCard } from './story-card.js';
import './catalogue.css';

export function PublicCatalogue() {
  const catalogue = useStaticCatalogue();
  const openSignIn = useSignIn();
  const stories = catalogue.data?.stories ?? [];
  const hero = stories[0];
  return (
    <div className="catalogue" data-testid="public-catalogue">
      <section className="catalogue-hero" aria-labelledby="hero-title">
        {hero ? <img className="catalogue-hero__art" src={hero.background_image} alt="" /> : null}
        <div className="catalogue-hero__shade" aria-hidden="true" />
        <div className="catalogue-hero__content">
          <h1 id="hero-title" className="catalogue-hero__title">Stories you play with your voice</h1>
          <p className="catalogue-hero__tagline">{T.tagline}</p>
          <Button variant="primary" size="lg" onClick={(e) => openSignIn({ origin: e.currentTarget.getBoundingClientRect() })}>Sign in to play</Button>
        </div>
      </section>
      <section className="catalogue-section page" aria-labelledby="stories-title">
        <h2 id="stories-title" className="catalogue-section__title">Stories</h2>
        {catalogue.isPending ? <div className="catalogue__status"><Spinner /></div> : null}
        {catalogue.isError || (catalogue.isSuccess && stories.length === 0) ? <p className="catalogue__status">{T.noStories}</p> : null}
        <ul className="catalogue-grid">
          {stories.map((s) => (
            <li key={s.id}>
              <StoryCard story={s} hoverText={T.signInToPlay} onOpen={(story, rect) => openSignIn({ origin: rect, storyId: story.id })} />
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
