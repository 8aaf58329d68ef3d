// The story detail modal (accounts spec §2): background image, logo, name, created date, '15 min per run', an HD
// badge, description, the rating (label: no rating images ship with the stories), rating tags, Genres, interactivity
// level and branching level. Launch goes to /launch/{storyId}; a story flagged is_coming_soon shows a disabled
// 'Coming Soon' button instead.
import { useNavigate } from 'react-router-dom';
import { ratingLabel, RUN_LENGTH_TEXT } from '../../../engine/catalogue/display.js';
import { launchPath } from '../../../engine/catalogue/launch.js';
import type { CatalogueStory } from '../../../engine/schema/views.js';
import { Button } from '../ui/button.js';
import { PlayIcon } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';
import { catalogueDate } from './catalogue-text.js';
import { HdBadge } from './story-facts.js';
import './story-modal.css';

export const STORY_MODAL_TEXT = { launch: 'Launch', comingSoon: 'Coming Soon', genres: 'Genres', interactivity: 'Interactivity', branching: 'Branching' } as const;

export function StoryModal({ story, origin, onClose }: { story: CatalogueStory | null; origin: DOMRect | null; onClose: () => void }) {
  const navigate = useNavigate();
  const s = story;
  return (
    <Modal open={s !== null} onClose={onClose} title={s?.name ?? ''} hideTitle maxWidth={760} origin={origin} flush testId="story-modal">
      {s ? (
        <article className="story-modal">
          <div className="story-modal__hero">
            <img className="story-modal__art" src={s.background_image} alt="" />
            <span className="story-modal__shade" aria-hidden="true" />
            <div className="story-modal__heading">
              <img className="story-modal__logo" src={s.story_logo_image} alt="" />
              <p className="story-modal__name" style={{ color: s.text_rgba_color || undefined }}>{s.name}</p>
            </div>
          </div>
          <div className="story-modal__body">
            <p className="story-modal__facts">
              <span>{catalogueDate(s.created_at)}</span>
              <span>{RUN_LENGTH_TEXT.modal}</span>
              <HdBadge />
            </p>
            <p className="story-modal__description">{s.catalogue_description}</p>
            <dl className="story-modal__table">
              <div>
                <dt>Rating</dt>
                <dd>
                  <span className="story-modal__rating">{ratingLabel(s.esbr_rating)}</span>
                  {s.esbr_tags.length ? <span className="story-modal__muted">{s.esbr_tags.map((t) => t.value).join(', ')}</span> : null}
                </dd>
              </div>
              <div>
                <dt>{STORY_MODAL_TEXT.genres}</dt>
                <dd>{s.genre_tags.map((t) => t.value).join(', ') || '—'}</dd>
              </div>
              <div>
                <dt>{STORY_MODAL_TEXT.interactivity}</dt>
                <dd>{s.interactivity_level}</dd>
              </div>
              <div>
                <dt>{STORY_MODAL_TEXT.branching}</dt>
                <dd>{s.branching_level}</dd>
              </div>
            </dl>
            <div className="story-modal__actions">
              {s.is_coming_soon ? (
                <Button variant="secondary" size="lg" disabled>{STORY_MODAL_TEXT.comingSoon}</Button>
              ) : (
                <Button variant="primary" size="lg" icon={<PlayIcon width={18} height={18} />} onClick={() => void navigate(launchPath(s.id))} data-autofocus>{STORY_MODAL_TEXT.launch}</Button>
              )}
            </div>
          </div>
        </article>
      ) : null}
    </Modal>
  );
}
