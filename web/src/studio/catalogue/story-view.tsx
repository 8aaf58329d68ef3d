// The story page (/admin/stories/:storyId): the story's catalogue fields (name, descriptions in English and French
// side by side, rating and its tags, genres, levels, colours, coming soon, duration, interactions per run), its
// images and intro sound with upload and crop previews, and beside them the story card and modal exactly as players
// will see them: the catalogue's own components, fed the catalogue row this draft would publish.
import { useState } from 'react';
import { ratingLabel } from '../../../../engine/catalogue/display.js';
import { StoryCard } from '../../catalogue/story-card.js';
import { StoryModal } from '../../catalogue/story-modal.js';
import type { StudioDraft } from '../draft/types.js';
import { catalogueOf, catalogueRow, hexOf, IMAGE_SIZES, LEVELS, LIMITS, parseTags, parseWhole, RATINGS, rgbaOf } from './catalogue-model.js';
import { messagesFor, ParsedInput, Select, set, TextInput, useSynced } from './catalogue-fields.js';
import { MediaField } from './media-field.js';
import './story-page.css';

function Colour({ draft, field, label }: { draft: StudioDraft; field: 'text_rgba_color' | 'background_rgba_color' | 'control_rgba_color'; label: string }) {
  const value = catalogueOf(draft.doc)[field];
  const [local, setLocal] = useSynced(value);
  const [error, setError] = useState<string | null>(null);
  const id = `cat-colour-${field}`;
  const write = (text: string) => {
    setLocal(text);
    if (text.length > LIMITS.colour || hexOf(text) === null) return setError('Must be a colour such as rgba(255,255,255,1) or #ffffff. Not saved.');
    setError(set(draft, ['catalogue', field], text, `Change ${label.toLowerCase()}`));
  };
  const errors = [...(error ? [error] : []), ...messagesFor(draft, ['catalogue', field])];
  return (
    <div className="cat-field">
      <label className="cat-label" htmlFor={id}>{label}</label>
      <div className="cat-colour">
        <input type="color" aria-label={`${label} picker`} value={hexOf(local) ?? '#000000'} onChange={(e) => write(rgbaOf(e.target.value, local))} />
        <input id={id} className="cat-input" value={local} onChange={(e) => write(e.target.value)} />
      </div>
      {errors.map((e, i) => <p key={i} className="cat-error" role="alert">{e}</p>)}
    </div>
  );
}

function Preview({ draft }: { draft: StudioDraft }) {
  const row = catalogueRow(draft.doc);
  const [origin, setOrigin] = useState<DOMRect | null>(null);
  const [open, setOpen] = useState(false);
  return (
    <aside className="cat-preview" aria-labelledby="cat-preview-title">
      <h2 id="cat-preview-title">As players see it</h2>
      <p className="cat-hint">The catalogue card (open it for the story modal), live as you edit.</p>
      <div className="cat-preview__card" data-testid="cat-preview-card">
        <StoryCard story={row} onOpen={(_s, rect) => { setOrigin(rect); setOpen(true); }} hoverText="Open the story modal" />
      </div>
      <StoryModal story={open ? row : null} origin={origin} onClose={() => setOpen(false)} />
    </aside>
  );
}

export function StoryView({ draft }: { draft: StudioDraft }) {
  const doc = draft.doc;
  const c = catalogueOf(doc);
  const name = typeof doc.name === 'string' ? doc.name : '';
  const maxInteractions = typeof doc.loop_max_number_of_interactions === 'number' ? String(doc.loop_max_number_of_interactions) : '';
  const desc = (lang: 'en' | 'fr') => (text: string) => {
    const next = { ...c.description, [lang]: text };
    if (lang === 'fr' && text === '') delete next.fr;
    return next;
  };
  return (
    <div className="cat" data-testid="story-page">
      <div className="cat__form">
        <section className="cat-section" aria-labelledby="cat-about">
          <h2 id="cat-about">The story</h2>
          <TextInput draft={draft} path={['name']} label="Name" value={name} max={LIMITS.name} required editLabel="Rename the story" />
          <div className="cat-pair">
            <TextInput draft={draft} path={['catalogue', 'description']} label="Description (English)" value={c.description.en} max={LIMITS.description} multiline required write={desc('en')} editLabel="Edit the English description" />
            <TextInput draft={draft} path={['catalogue', 'description']} label="Description (French)" value={c.description.fr ?? ''} max={LIMITS.description} multiline write={desc('fr')} editLabel="Edit the French description" />
          </div>
          {c.description.fr === undefined ? <p className="cat-warn">No French description yet: French players see the English one.</p> : null}
        </section>

        <section className="cat-section" aria-labelledby="cat-rating">
          <h2 id="cat-rating">Rating and genres</h2>
          <div className="cat-grid">
            <Select draft={draft} path={['catalogue', 'esbr_rating']} label="Age rating" value={c.esbr_rating} options={RATINGS.map((r) => ({ value: r, label: ratingLabel(r) }))} editLabel="Change the age rating" />
            <ParsedInput draft={draft} path={['catalogue', 'esbr_tags']} label="Rating tags" value={c.esbr_tags.join(', ')} hint={`Comma separated, at most ${LIMITS.tags}, ${LIMITS.tag} characters each`} parse={(t) => { const r = parseTags(t); return r.ok ? { ok: true, value: r.tags } : r; }} editLabel="Edit the rating tags" />
            <ParsedInput draft={draft} path={['catalogue', 'genre_tags']} label="Genres" value={c.genre_tags.join(', ')} hint={`Comma separated, at most ${LIMITS.tags}`} parse={(t) => { const r = parseTags(t); return r.ok ? { ok: true, value: r.tags } : r; }} editLabel="Edit the genres" />
            <Select draft={draft} path={['catalogue', 'interactivity_level']} label="Interactivity level" value={c.interactivity_level} options={LEVELS.map((l) => ({ value: l, label: l }))} editLabel="Change the interactivity level" />
            <Select draft={draft} path={['catalogue', 'branching_level']} label="Branching level" value={c.branching_level} options={LEVELS.map((l) => ({ value: l, label: l }))} editLabel="Change the branching level" />
          </div>
        </section>

        <section className="cat-section" aria-labelledby="cat-play">
          <h2 id="cat-play">Play</h2>
          <div className="cat-grid">
            <ParsedInput draft={draft} path={['catalogue', 'estimated_minute_duration']} label="Minutes per run (estimate)" type="number" value={String(c.estimated_minute_duration)} parse={(t) => parseWhole(t, 1)} editLabel="Change the run length" />
            <ParsedInput draft={draft} path={['loop_max_number_of_interactions']} label="Interactions per run" type="number" value={maxInteractions} hint="Empty: 30, the default"
              parse={(t) => (t.trim() === '' ? { ok: true, value: undefined } : parseWhole(t, 1))} editLabel="Change the interactions per run" />
            <div className="cat-field cat-check">
              <input id="cat-coming-soon" type="checkbox" checked={c.is_coming_soon} onChange={(e) => set(draft, ['catalogue', 'is_coming_soon'], e.target.checked, e.target.checked ? 'Mark as coming soon' : 'Unmark coming soon')} />
              <label htmlFor="cat-coming-soon">Coming soon (players see it and cannot launch it)</label>
            </div>
          </div>
        </section>

        <section className="cat-section" aria-labelledby="cat-look">
          <h2 id="cat-look">Colours</h2>
          <div className="cat-grid">
            <Colour draft={draft} field="text_rgba_color" label="Title colour" />
            <Colour draft={draft} field="background_rgba_color" label="Background colour" />
            <Colour draft={draft} field="control_rgba_color" label="Control colour" />
          </div>
        </section>

        <section className="cat-section" aria-labelledby="cat-media">
          <h2 id="cat-media">Images and sound</h2>
          <MediaField storyId={draft.storyId} kind="image" label="Background image" slot="background" value={c.background_image} sizes={IMAGE_SIZES.background_image}
            onChange={(p) => set(draft, ['catalogue', 'background_image'], p, 'Change the background image')} />
          <MediaField storyId={draft.storyId} kind="image" label="Logo" slot="logo" value={c.story_logo_image} sizes={IMAGE_SIZES.story_logo_image}
            onChange={(p) => set(draft, ['catalogue', 'story_logo_image'], p, 'Change the logo')} />
          <div className="cat-samples">
            {c.sample_images.map((p, i) => (
              <MediaField key={`${p}-${i}`} storyId={draft.storyId} kind="image" label={`Sample image ${i + 1}`} slot={`sample-${i + 1}`} value={p} sizes={IMAGE_SIZES.sample_images}
                onChange={(np) => set(draft, ['catalogue', 'sample_images'], c.sample_images.map((x, j) => (j === i ? np : x)), 'Change a sample image')}
                onClear={() => set(draft, ['catalogue', 'sample_images'], c.sample_images.filter((_x, j) => j !== i), 'Remove a sample image')} />
            ))}
            {c.sample_images.length < LIMITS.samples ? (
              <MediaField storyId={draft.storyId} kind="image" label="Add a sample image (the hero carousel)" slot={`sample-${c.sample_images.length + 1}`} value=""
                onChange={(np) => set(draft, ['catalogue', 'sample_images'], [...c.sample_images, np], 'Add a sample image')} />
            ) : null}
          </div>
          <MediaField storyId={draft.storyId} kind="sound" label="Intro sound" slot="intro" value={c.sound_intro ?? ''}
            onChange={(p) => set(draft, ['catalogue', 'sound_intro'], p, 'Change the intro sound')}
            onClear={() => set(draft, ['catalogue', 'sound_intro'], undefined, 'Remove the intro sound')} />
        </section>
      </div>
      <Preview draft={draft} />
    </div>
  );
}
