// Works out a draft's problems off the page's thread, so typing in a 2,000-moment story never waits on the
// validator: the page posts the draft, the worker answers with the engine validator's problems and how long it took.
import { validateStory } from '../../../../engine/story/validate.js';

type Ask = { seq: number; doc: unknown };

self.addEventListener('message', (e: MessageEvent<Ask>) => {
  const start = performance.now();
  const problems = validateStory(e.data.doc).problems;
  self.postMessage({ seq: e.data.seq, problems, ms: performance.now() - start });
});
