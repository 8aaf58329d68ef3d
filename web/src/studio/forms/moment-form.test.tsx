// @vitest-environment happy-dom
// The moment form over a local draft: one row per field of the moment's type, English and French side by side, the
// changes each widget asks for, limits refused before anything is applied, flags, problems and refusals on the field.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Json } from '../../../../engine/authoring/apply.js';
import { COMMON_FIELDS } from '../../../../engine/moments/common.js';
import fixture from '../../../../fixtures/stories/lantern-keeper/story.json';
import { type Applied, LocalDraft } from './local-draft.js';
import { MomentForm } from './moment-form.js';

vi.mock('../draft/draft-context.js', async () => ({ useDraft: (await import('./local-draft.js')).useLocalDraft }));
vi.mock('./use-translation-ages.js', async () => ({ useTranslationAges: (await import('./local-draft.js')).useLocalAges }));

const doc = fixture as unknown as Json;
const REWARD = '7be1748d-2b03-4e6f-a8bf-daa260794fde';
const moment = (d: Json, id: string) => (d.moments as Json[]).find((m) => m.id === id) as Json;

function renderForm(opts: { d?: Json; id?: string; problems?: Parameters<typeof LocalDraft>[0]['problems']; refusals?: Record<string, string>; ages?: Parameters<typeof LocalDraft>[0]['ages'] } = {}) {
  const log: Applied[] = [];
  const r = render(
    <LocalDraft doc={opts.d ?? doc} log={log} {...(opts.problems ? { problems: opts.problems } : {})} {...(opts.refusals ? { refusals: opts.refusals } : {})} {...(opts.ages ? { ages: opts.ages } : {})}>
      <MomentForm momentId={opts.id ?? REWARD} />
    </LocalDraft>,
  );
  const row = (key: string): HTMLElement => {
    const el = r.container.querySelector<HTMLElement>(`.form-row[data-field="${key}"]`);
    if (!el) throw new Error(`no row ${key}`);
    return el;
  };
  return { ...r, log, row };
}

afterEach(cleanup);

describe('MomentForm', () => {
  it('shows one row per field of the type: every common field but id and type, then the type\'s own', () => {
    const { container } = renderForm();
    const keys = [...container.querySelectorAll('.form-row')].map((e) => e.getAttribute('data-field'));
    expect(keys).toEqual([...COMMON_FIELDS.map((f) => f.key).filter((k) => k !== 'id' && k !== 'type'), 'rewards']);
    expect(screen.getByTestId('moment-type').textContent).toBe('Reward');
  });

  it('edits the English and the French of a name side by side, each as one set of the whole text', () => {
    const { row, log } = renderForm();
    const name = moment(doc, REWARD).name as { en: string; fr: string };
    const [en, fr] = within(row('name')).getAllByRole('textbox');
    fireEvent.change(en!, { target: { value: 'Nell on the Quay' } });
    expect(log.at(-1)?.changes).toEqual([{ op: 'set', path: ['moments', REWARD, 'name'], value: { en: 'Nell on the Quay', fr: name.fr } }]);
    fireEvent.change(fr!, { target: { value: 'Nell sur le quai' } });
    expect(log.at(-1)?.changes).toEqual([{ op: 'set', path: ['moments', REWARD, 'name'], value: { en: 'Nell on the Quay', fr: 'Nell sur le quai' } }]);
    // Emptying the French removes it, and the field says it is missing.
    expect(screen.queryByTestId('translation-gaps')).toBeNull();
    fireEvent.change(fr!, { target: { value: '' } });
    expect(log.at(-1)?.changes[0]).toEqual({ op: 'set', path: ['moments', REWARD, 'name'], value: { en: 'Nell on the Quay' } });
    expect(within(row('name')).getByTestId('translation-flag').textContent).toBe('French missing');
    expect(screen.getByTestId('translation-gaps').textContent).toBe('1 French text missing');
  });

  it('refuses a text past the format\'s limit and an empty required English before applying anything', () => {
    const { row, log } = renderForm();
    const [en] = within(row('goal')).getAllByRole('textbox');
    fireEvent.change(en!, { target: { value: 'x'.repeat(4001) } });
    expect(within(row('goal')).getByRole('alert').textContent).toBe('At most 4000 characters (4001).');
    const [name] = within(row('name')).getAllByRole('textbox');
    fireEvent.change(name!, { target: { value: '' } });
    expect(within(row('name')).getByRole('alert').textContent).toBe('Required: write the English.');
    expect(log).toEqual([]);
  });

  it('refuses a number outside the field\'s range, applies one inside it, and removes an optional number when emptied', () => {
    const { row, log } = renderForm();
    const input = within(row('display_randomly_probability')).getByRole('spinbutton');
    fireEvent.change(input, { target: { value: '150' } });
    expect(within(row('display_randomly_probability')).getByRole('alert').textContent).toBe('A number from 0 to 100.');
    expect(log).toEqual([]);
    fireEvent.change(input, { target: { value: '40' } });
    expect(log.at(-1)?.changes).toEqual([{ op: 'set', path: ['moments', REWARD, 'display_randomly_probability'], value: 40 }]);
    fireEvent.change(input, { target: { value: '' } });
    expect(log.at(-1)?.changes).toEqual([{ op: 'set', path: ['moments', REWARD, 'display_randomly_probability'] }]);
  });

  it('adds a transition to another moment, picks a speaker, and adds a phrase per language', () => {
    const { row, log } = renderForm();
    const before = (moment(doc, REWARD).transitions as unknown[]).length;
    fireEvent.click(within(row('transitions')).getByRole('button', { name: 'Add transition' }));
    const t = log.at(-1)?.changes[0] as { value: Json[] };
    expect(t.value).toHaveLength(before + 1);
    expect(t.value.at(-1)?.next_moment_id).not.toBe(REWARD);
    expect((doc.moments as Json[]).some((m) => m.id === t.value.at(-1)?.next_moment_id)).toBe(true);
    const speaker = within(row('character_id')).getByRole('combobox');
    fireEvent.change(speaker, { target: { value: '3d1615e5-2085-482a-bbb4-4bef99489bcd' } });
    expect(log.at(-1)?.changes).toEqual([{ op: 'set', path: ['moments', REWARD, 'character_id'], value: '3d1615e5-2085-482a-bbb4-4bef99489bcd' }]);
    const [sayEn, sayFr] = within(row('say')).getAllByRole('textbox');
    const had = (moment(doc, REWARD).say as { en: string[]; fr?: string[] } | undefined);
    fireEvent.change(sayEn!, { target: { value: [...(had?.en ?? []), 'give me the coat', ''].join('\n') } });
    expect((log.at(-1)?.changes[0] as { value: { en: string[] } }).value.en.at(-1)).toBe('give me the coat');
    fireEvent.change(sayFr!, { target: { value: [...(had?.fr ?? []), 'donnez-moi le ciré'].join('\n') } });
    expect((log.at(-1)?.changes[0] as { value: { fr: string[] } }).value.fr.at(-1)).toBe('donnez-moi le ciré');
  });

  it('changes the type only after showing the fields that go, as one step', () => {
    const { log, container } = renderForm();
    fireEvent.change(screen.getByLabelText('Change the type to'), { target: { value: 'Battle' } });
    expect(screen.getByRole('group', { name: 'Confirm the type change' }).textContent).toContain('A Battle has no rewards');
    expect(log).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Change to Battle' }));
    expect(log).toEqual([{ label: 'Change the type to Battle', changes: [{ op: 'set', path: ['moments', REWARD, 'type'], value: 'Battle' }, { op: 'set', path: ['moments', REWARD, 'rewards'] }] }]);
    expect(container.querySelector('.form-row[data-field="opponents"]')).not.toBeNull();
    expect(container.querySelector('.form-row[data-field="rewards"]')).toBeNull();
  });

  it('shows the validator\'s problems and the server\'s refusal on the field they name, and flags outdated French', () => {
    const i = (doc.moments as Json[]).findIndex((m) => m.id === REWARD);
    const { row } = renderForm({
      problems: [{ severity: 'error', path: `$.moments[${i}].goal`, code: 'x/y', message: 'The goal says <b>nothing</b>.' }],
      refusals: { [`moments/${REWARD}/hint`]: 'hint: too long' },
      ages: new Map([[`moments/${REWARD}/name`, { en: 5, fr: 2 }]]),
    });
    expect(within(row('goal')).getByTestId('field-problems').textContent).toBe('The goal says <b>nothing</b>.');
    expect(row('goal').querySelector('b')).toBeNull();
    expect(within(row('hint')).getByTestId('field-refusal').textContent).toBe('Not saved: hint: too long');
    expect(within(row('name')).getByTestId('translation-flag').textContent).toBe('French older than English');
    expect(screen.getByTestId('translation-gaps').textContent).toBe('1 older than its English');
  });
});
