// @vitest-environment happy-dom
// The characters/items/places list and one entity's editor over a local draft: search, add, delete with what uses it
// shown first (one step), rename that every text follows (one step), and "used in" links to the flow's moment forms.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyChanges, type Json } from '../../../../engine/authoring/apply.js';
import fixture from '../../../../fixtures/stories/lantern-keeper/story.json';
import { type Applied, LocalDraft } from '../forms/local-draft.js';
import { EntityEditor } from './entity-editor.js';
import { EntityListPage } from './entity-list-page.js';

vi.mock('../draft/draft-context.js', async () => ({ useDraft: (await import('../forms/local-draft.js')).useLocalDraft }));
vi.mock('../forms/use-translation-ages.js', async () => ({ useTranslationAges: (await import('../forms/local-draft.js')).useLocalAges }));

const doc = fixture as unknown as Json;
const NELL = 'aef8cd16-3baf-4279-b20a-3b1c5df00de9';

function renderIn(node: React.ReactNode) {
  const log: Applied[] = [];
  const r = render(<MemoryRouter><LocalDraft doc={doc} log={log}>{node}</LocalDraft></MemoryRouter>);
  return { ...r, log };
}

afterEach(cleanup);

describe('EntityListPage', () => {
  it('lists the characters, finds one by an alias, and adds one', () => {
    const { log } = renderIn(<EntityListPage collection="characters" />);
    expect(screen.getAllByTestId('entity-row')).toHaveLength(5);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search characters' }), { target: { value: 'passeur' } });
    expect(screen.getAllByTestId('entity-row').map((r) => within(r).getByRole('link').textContent)).toEqual(['Bram Tully']);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search characters' }), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Name of the new character'), { target: { value: 'Ada <i>Finch</i>' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add character' }));
    expect(log).toHaveLength(1);
    expect(log[0]?.changes[0]).toMatchObject({ op: 'add', collection: 'characters', value: { name: 'Ada <i>Finch</i>', base_attack: 0, base_health: 1 } });
    expect(screen.getAllByTestId('entity-row')).toHaveLength(6);
    expect(screen.getByText('Ada <i>Finch</i>')).toBeTruthy();
  });

  it('shows what uses a character before deleting it, then deletes it and those references in one step', () => {
    const { log } = renderIn(<EntityListPage collection="characters" />);
    const row = screen.getAllByTestId('entity-row').find((r) => r.textContent?.includes('Nell Cardew'));
    if (!row) throw new Error('no Nell');
    fireEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Nell Cardew' });
    expect(dialog.textContent).toContain('Nell at the Quay');
    expect(log).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: /^Delete Nell Cardew and \d+ references$/ }));
    expect(log).toHaveLength(1);
    expect(log[0]?.label).toBe('Delete Nell Cardew');
    const r = applyChanges(doc, log[0]?.changes ?? []);
    expect(r.ok && JSON.stringify(r.doc).includes(NELL)).toBe(false);
    expect(screen.getAllByTestId('entity-row')).toHaveLength(4);
  });
});

describe('EntityEditor', () => {
  it('edits a character\'s numbers within their limits, renames it in one step with its texts, and links every moment that uses it', () => {
    const { log, container } = renderIn(<EntityEditor collection="characters" id={NELL} />);
    const attack = container.querySelector<HTMLInputElement>('.form-row[data-field="base_attack"] input');
    fireEvent.change(attack!, { target: { value: '-1' } });
    expect(log).toEqual([]);
    fireEvent.change(attack!, { target: { value: '7' } });
    expect(log.at(-1)?.changes).toEqual([{ op: 'set', path: ['characters', NELL, 'base_attack'], value: 7 }]);

    const links = within(screen.getByTestId('entity-uses')).getAllByRole('link');
    expect(links.map((a) => a.textContent)).toContain('Nell at the Quay');
    expect(links.find((a) => a.textContent === 'Nell at the Quay')?.getAttribute('href')).toBe(`/admin/stories/${String(doc.id)}/flow/moment/7be1748d-2b03-4e6f-a8bf-daa260794fde`);

    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Nell Marsh' } });
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    const step = log.at(-1);
    expect(step?.label).toBe('Rename Nell Cardew to Nell Marsh');
    expect(step?.changes[0]).toEqual({ op: 'set', path: ['characters', NELL, 'name'], value: 'Nell Marsh' });
    expect(screen.getByTestId('entity-name').textContent).toBe('Nell Marsh');
  });
});
