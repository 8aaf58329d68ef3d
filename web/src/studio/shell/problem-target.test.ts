import { describe, expect, it } from 'vitest';
import { englishOf, problemHref, problemTarget } from './problem-target.js';

const doc = {
  moments: [{ id: 'm-0' }, { id: 'm-1' }],
  characters: [{ id: 'c-0' }],
  items: [],
};

describe('problem targets', () => {
  it('finds the moment, character or the story a problem path names', () => {
    expect(problemTarget(doc, '$.moments[1].transitions[0].next_moment_id')).toEqual({ kind: 'moment', id: 'm-1', field: 'transitions' });
    expect(problemTarget(doc, '$.moments[0]')).toEqual({ kind: 'moment', id: 'm-0', field: null });
    expect(problemTarget(doc, '$.characters[0].name')).toEqual({ kind: 'characters', id: 'c-0', field: 'name' });
    expect(problemTarget(doc, '$.first_moment_id')).toEqual({ kind: 'story', field: 'first_moment_id' });
    expect(problemTarget(doc, '$')).toEqual({ kind: 'story', field: null });
    // An index past the list (the problem is older than an edit): the story, never a wrong entry.
    expect(problemTarget(doc, '$.items[4].name')).toEqual({ kind: 'story', field: 'items' });
  });

  it('links each target to its screen', () => {
    expect(problemHref('s', { kind: 'moment', id: 'm-1', field: null })).toBe('/admin/stories/s/flow/moment/m-1');
    expect(problemHref('s', { kind: 'characters', id: 'c-0', field: 'name' })).toBe('/admin/characters/c-0?story=s');
    expect(problemHref('s', { kind: 'story', field: 'name' })).toBe('/admin/stories/s');
  });

  it('reads a text in English whatever its form', () => {
    expect(englishOf('Hi')).toBe('Hi');
    expect(englishOf({ en: 'Hi', fr: 'Salut' })).toBe('Hi');
    expect(englishOf(undefined)).toBe('');
  });
});
