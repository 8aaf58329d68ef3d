import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CatalogueStory } from '../../../../engine/schema/views.js';
import { catalogueRow, hexOf, mediaUrl, parseTags, parseWhole, rgbaOf } from './catalogue-model.js';

const lantern = JSON.parse(readFileSync(join(import.meta.dirname, '../../../../fixtures/stories/lantern-keeper/story.json'), 'utf8')) as Record<string, unknown>;

describe('the story page model', () => {
  it("builds the catalogue row players get from the draft, media paths as the server's public URLs", () => {
    const row = catalogueRow(lantern);
    expect(CatalogueStory.safeParse(row).success).toBe(true);
    expect(row).toMatchObject({
      id: lantern.id, name: 'The Lantern Keeper', background_image: `/storage/v1/object/public/image/${String(lantern.id)}/background.svg`,
      genre_tags: [{ value: 'Mystery' }, { value: 'Cozy' }, { value: 'Seaside' }], user_started: false, estimated_minute_duration: 15,
    });
    expect(row.sampleImages).toEqual([`/storage/v1/object/public/image/${String(lantern.id)}/sample-quay.svg`, `/storage/v1/object/public/image/${String(lantern.id)}/sample-gallery.svg`]);
    expect(mediaUrl('s', 'https://cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png');
    expect(mediaUrl('s', 'sounds/intro.mp3', 'sound')).toBe('/storage/v1/object/public/sound/s/intro.mp3');
  });

  it('refuses tags and numbers the story format refuses, with the reason', () => {
    expect(parseTags(' Mystery , Cozy,, ')).toEqual({ ok: true, tags: ['Mystery', 'Cozy'] });
    expect(parseTags('x'.repeat(51))).toMatchObject({ ok: false });
    expect(parseTags(Array.from({ length: 21 }, (_v, i) => `t${i}`).join(','))).toEqual({ ok: false, message: 'At most 20 tags (21 given).' });
    expect(parseWhole('12', 1)).toEqual({ ok: true, value: 12 });
    for (const bad of ['0', '1.5', '', 'ten']) expect(parseWhole(bad, 1)).toMatchObject({ ok: false });
  });

  it('turns rgba colours into a colour input value and back, keeping the alpha', () => {
    expect(hexOf('rgba(255,240,205,1)')).toBe('#fff0cd');
    expect(hexOf('#ABCDEF')).toBe('#abcdef');
    expect(hexOf('red')).toBeNull();
    expect(rgbaOf('#fff0cd', 'rgba(0,0,0,0.5)')).toBe('rgba(255,240,205,0.5)');
  });
});
