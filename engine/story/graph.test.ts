import { describe, expect, it } from 'vitest';
import { testStory, testStoryInput, T } from '../run/test-story.js';
import { Story, type StoryInput } from './format.js';
import { dotText, mermaidText, storyGraph } from './graph.js';

const keyOf = (story: Story, id: string): string => `m${story.moments.findIndex((m) => m.id === id)}`;
const lines = (text: string): string[] => text.split('\n').map((l) => l.trim());
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function edited(edit: (s: StoryInput) => void): Story {
  const s = structuredClone(testStoryInput);
  edit(s);
  return Story.parse(s);
}

describe('storyGraph, mermaid', () => {
  const text = storyGraph(testStory, 'mermaid');

  it('is a flowchart starting at the first moment', () => {
    expect(text.startsWith('flowchart TD\n')).toBe(true);
    expect(lines(text)).toContain(`start --> ${keyOf(testStory, T.intro)}`);
  });

  it('has one node per moment, labelled with name and type', () => {
    for (const m of testStory.moments) {
      expect(text, m.name.en).toMatch(new RegExp(`^  ${keyOf(testStory, m.id)}\\W+"${escape(m.name.en)} \\(${m.type}\\)"\\W+$`, 'm'));
    }
  });

  it('has one edge per transition, with the branch label when there is one', () => {
    for (const m of testStory.moments) {
      for (const t of m.transitions) {
        const label = t.label ? `\\|"${escape(t.label.en)}"\\|` : '';
        expect(text).toMatch(new RegExp(`^  ${keyOf(testStory, m.id)} -->${label} ${keyOf(testStory, t.next_moment_id)}$`, 'm'));
      }
    }
    const edgeCount = lines(text).filter((l) => /^m\d+ -->/.test(l)).length;
    expect(edgeCount).toBe(testStory.moments.reduce((n, m) => n + m.transitions.length, 0));
  });

  it('gives Epilogue and Dead End their own shapes and classes', () => {
    expect(text).toContain(`${keyOf(testStory, T.epilogue)}((("End (Epilogue)")))`);
    expect(text).toContain(`${keyOf(testStory, T.deadEnd)}>"Pit (Dead End)"]`);
    expect(lines(text)).toContain(`class ${keyOf(testStory, T.epilogue)} epilogue`);
    expect(lines(text)).toContain(`class ${keyOf(testStory, T.deadEnd)} deadEnd`);
  });

  it('draws skip targets dashed, answers that pick a moment, and targets that do not exist', () => {
    const s = edited((x) => {
      const learn = x.moments.find((m) => m.id === T.learn);
      if (learn) {
        learn.skip_to_moment_id = T.reward;
        learn.answers = [...(learn.answers ?? []), { id: 'shortcut', match: { en: ['short'] }, reply: [{ en: 'Fine.' }], next_moment_id: T.epilogue }];
        learn.transitions = [...(learn.transitions ?? []), { next_moment_id: T.lamp }];
      }
      const cross = x.moments.find((m) => m.id === T.cross);
      if (cross) cross.answers = [{ id: 'leap', match: { en: ['leap'] }, reply: [{ en: 'Jump!' }], next_moment_id: T.deadEnd }];
    });
    const g = lines(storyGraph(s, 'mermaid'));
    const k = (id: string): string => keyOf(s, id);
    expect(g).toContain(`${k(T.learn)} -.->|"skip"| ${k(T.reward)}`);
    expect(g).toContain(`${k(T.learn)} ==>|"answer shortcut"| ${k(T.epilogue)}`);
    expect(g).toContain(`${k(T.cross)} -->|"right / answer leap"| ${k(T.deadEnd)}`);
    expect(g.find((l) => l.includes(`missing moment ${T.lamp}`))).toMatch(/^missing\d+\["missing moment [0-9a-f-]+"\]$/);
  });

  it('escapes quotes and markup in labels, and can use French names', () => {
    expect(mermaidText('Say "hi" <b>#1</b> | a\nb')).toBe('Say #34;hi#34; #60;b#62;#35;1#60;/b#62; #124; a b');
    const s = edited((x) => { const m = x.moments[0]; if (m) m.name = { en: 'The "Bad" <Night>', fr: 'La "nuit"' }; });
    const g = storyGraph(s, 'mermaid');
    expect(g).toContain('m0(["The #34;Bad#34; #60;Night#62; (Monologue)"])');
    expect(storyGraph(s, 'mermaid', 'fr')).toContain('m0(["La #34;nuit#34; (Monologue)"])');
  });
});

describe('storyGraph, dot', () => {
  const text = storyGraph(testStory, 'dot');

  it('is a digraph starting at the first moment', () => {
    expect(text.startsWith('digraph "Engine Test Story" {\n')).toBe(true);
    expect(text.trimEnd().endsWith('}')).toBe(true);
    expect(lines(text)).toContain(`start -> ${keyOf(testStory, T.intro)};`);
  });

  it('has one node per moment, labelled with name and type', () => {
    for (const m of testStory.moments) {
      expect(text).toMatch(new RegExp(`^  ${keyOf(testStory, m.id)} \\[label="${escape(m.name.en)} \\(${m.type}\\)", shape=`, 'm'));
    }
    expect(text).toMatch(/m11 \[label="End \(Epilogue\)", shape=doublecircle/);
    expect(text).toMatch(/m3 \[label="Pit \(Dead End\)", shape=doubleoctagon/);
  });

  it('has one edge per transition, with the branch label when there is one', () => {
    for (const m of testStory.moments) {
      for (const t of m.transitions) {
        const attrs = t.label ? ` \\[label="${escape(t.label.en)}"\\]` : '';
        expect(text).toMatch(new RegExp(`^  ${keyOf(testStory, m.id)} -> ${keyOf(testStory, t.next_moment_id)}${attrs};$`, 'm'));
      }
    }
    const edgeCount = lines(text).filter((l) => /^m\d+ ->/.test(l)).length;
    expect(edgeCount).toBe(testStory.moments.reduce((n, m) => n + m.transitions.length, 0));
  });

  it('draws skip targets dashed and escapes labels', () => {
    expect(dotText('a "b" \\n c\nd')).toBe('a \\"b\\" \\\\n c d');
    const s = edited((x) => {
      const m = x.moments[0];
      if (m) { m.skip_to_moment_id = T.epilogue; m.name = { en: 'Quote " and \\ slash', fr: 'x' }; }
    });
    const g = storyGraph(s, 'dot');
    expect(lines(g)).toContain(`m0 -> ${keyOf(s, T.epilogue)} [label="skip", style=dashed];`);
    expect(g).toContain('m0 [label="Quote \\" and \\\\ slash (Monologue)"');
  });
});
