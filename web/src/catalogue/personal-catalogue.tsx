// The personal catalogue (/browse signed in, accounts spec §2): a sticky bar with Connect, a full-screen hero carousel
// of the newest story, a Continue row of the stories the player started (with REAL progress: runs and moments
// reached; the spec's bar was random, a bug noted in engine/catalogue/progress.ts) and Trending Now, every story in
// 1-4 columns. A card or the hero's 'More Info' opens the story detail modal.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { progressCaption, type StoryProgress } from '../../../engine/catalogue/progress.js';
import type { CatalogueStory } from '../../../engine/schema/views.js';
import { useProgress, useStories } from '../api/queries.js';
import { useSession } from '../auth/session.js';
import { Alert } from '../ui/alert.js';
import { Button } from '../ui/button.js';
import { Spinner } from '../ui/spinner.js';
import { CATALOGUE_TEXT as T } from './catalogue-text.js';
import { HeroCarousel } from './hero-carousel.js';
import { StoryCard } from './story-card.js';
import { PersonalStoryFacts } from './story-facts.js';
import { StoryModal } from './story-modal.js';
import './catalogue.css';

function ProgressBar({ progress }: { progress: StoryProgress | undefined }) {
  const pct = Math.round((progress?.fraction ?? 0) * 100);
  const caption = progress ? progressCaption(progress) : T.loading;
  return (
    <span className="continue-progress">
      <span className="continue-progress__bar" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label="Moments reached">
        <span className="continue-progress__fill" style={{ width: `${pct}%` }} />
      </span>
      <span className="continue-progress__caption" data-testid="progress-caption">{caption}</span>
    </span>
  );
}

export function PersonalCatalogue() {
  const session = useSession();
  const userId = session.state.status === 'signed_in' ? session.state.userId : null;
  const stories = useStories(userId);
  const progress = useProgress(userId);
  const [open, setOpen] = useState<{ story: CatalogueStory; origin: DOMRect | null } | null>(null);
  const list = stories.isError ? [] : stories.data ?? [];
  const newest = [...list].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))[0];
  const started = list.filter((s) => s.user_started);
  const byStory = new Map((progress.data ?? []).map((p) => [p.blueprint_story_id, p]));
  const openStory = (story: CatalogueStory, origin: DOMRect | null) => setOpen({ story, origin });

  return (
    <div className="catalogue" data-testid="personal-catalogue">
      {newest ? (
        <section className="catalogue-hero catalogue-hero--full" aria-labelledby="hero-title" data-testid="personal-hero">
          <HeroCarousel images={newest.sampleImages.length ? newest.sampleImages : [newest.background_image]} label={newest.name} loadingText={T.loadingImages} />
          <div className="catalogue-hero__shade" aria-hidden="true" />
          <div className="catalogue-hero__content">
            <img className="catalogue-hero__logo" src={newest.story_logo_image} alt="" />
            <h1 id="hero-title" className="catalogue-hero__title" style={{ color: newest.text_rgba_color || undefined }}>{newest.name}</h1>
            <p className="catalogue-hero__tagline catalogue-hero__tagline--clamp">{newest.catalogue_description}</p>
            <div className="catalogue-hero__actions">
              <Button variant="secondary" size="lg" onClick={(e) => openStory(newest, e.currentTarget.getBoundingClientRect())}>{T.moreInfo}</Button>
            </div>
          </div>
        </section>
      ) : <h1 className="visually-hidden">Stories</h1>}

      <nav className="catalogue-bar" aria-label="Catalogue">
        <div className="catalogue-bar__inner">
          {started.length ? <a href="#continue">{T.continueRow}</a> : null}
          <a href="#trending">{T.trendingNow}</a>
          <Link className="catalogue-bar__connect" to="/share-feedback">{T.connect}</Link>
        </div>
      </nav>
      <div className="page">
        {stories.isPending ? <div className="catalogue__status"><Spinner label={T.loading} /><span aria-hidden="true">{T.loading}</span></div> : null}
        {stories.isError ? <Alert>{T.loadFailed}</Alert> : null}

        {started.length ? (
          <section className="catalogue-section" aria-labelledby="continue" data-testid="continue-row">
            <h2 className="catalogue-section__title" id="continue">{T.continueRow}</h2>
            <ul className="catalogue-row">
              {started.map((s) => (
                <li key={s.id}>
                  <StoryCard story={s} onOpen={(story, rect) => openStory(story, rect)}>
                    <ProgressBar progress={byStory.get(s.id)} />
                  </StoryCard>
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        <section className="catalogue-section" aria-labelledby="trending">
          <h2 className="catalogue-section__title" id="trending">{T.trendingNow}</h2>
          {stories.isSuccess && list.length === 0 ? <p className="catalogue__status">{T.noneAvailable}</p> : null}
          <ul className="catalogue-grid" data-testid="trending">
            {list.map((s) => (
              <li key={s.id}>
                <StoryCard story={s} onOpen={(story, rect) => openStory(story, rect)}>
                  <PersonalStoryFacts story={s} />
                </StoryCard>
              </li>
            ))}
          </ul>
        </section>
      </div>
      <StoryModal story={open?.story ?? null} origin={open?.origin ?? null} onClose={() => setOpen(null)} />
    </div>
  );
}
