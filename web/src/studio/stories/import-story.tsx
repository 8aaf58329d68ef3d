// Import a story: a story file (.json) becomes a new draft-only story (a file whose id is already taken comes in as a
// copy under new ids, and says so); a story archive (.tar, as Export .tar gives it) is imported with its media and
// published as the server's archive route does. Bad files say why and change nothing.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../../../../engine/client/api/http.js';
import type { Json } from '../../../../engine/authoring/apply.js';
import { withFreshIds } from '../../../../engine/authoring/new-story.js';
import { STORY_FILE_MAX_BYTES } from '../../../../engine/story/limits.js';
import { newId } from '../../api/client.js';
import { Alert } from '../../ui/alert.js';
import { refusalText, sendBytes, workshop, workshopKeys } from './workshop-api.js';

type Outcome = { id: string; name: string; note: string };

async function importFile(file: File): Promise<Outcome> {
  const lower = file.name.toLowerCase();
  if (lower.endsWith('.tar')) {
    const r = await sendBytes<{ id: string; name: string; media: number; replaced: boolean }>('POST', '/api/stories/archive', file, 'application/x-tar');
    return { id: r.id, name: r.name, note: `${r.replaced ? 'Replaced' : 'Imported'} with ${r.media} media file${r.media === 1 ? '' : 's'}, published.` };
  }
  if (!lower.endsWith('.json')) throw new Error(`"${file.name}" is not a story file: choose a .json story file or a .tar story archive.`);
  if (file.size > STORY_FILE_MAX_BYTES) throw new Error(`"${file.name}" is larger than ${STORY_FILE_MAX_BYTES / 1024 / 1024} MB: a story file is a few hundred KB at most.`);
  let doc: unknown;
  try {
    doc = JSON.parse(await file.text()) as unknown;
  } catch {
    throw new Error(`"${file.name}" is not JSON: a story file is the JSON that Export .json gives.`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc) || typeof (doc as Json).id !== 'string') {
    throw new Error(`"${file.name}" is not a story file: it has no story id.`);
  }
  const name = typeof (doc as Json).name === 'string' ? String((doc as Json).name) : 'Story';
  try {
    const w = await workshop.importFile(doc);
    return { id: w.draft.story_id, name, note: 'Imported as a draft: publish it from its history.' };
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== 'authoring/exists') throw e;
    const copy = withFreshIds(doc as Json, newId, name, new Date().toISOString());
    const w = await workshop.importFile(copy);
    return { id: w.draft.story_id, name: String(copy.name), note: 'This story is already in the studio: imported as a copy with new ids.' };
  }
}

export function ImportStory() {
  const qc = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [done, setDone] = useState<Outcome | null>(null);
  const run = useMutation({
    mutationFn: importFile,
    onSuccess: async (o) => {
      setDone(o);
      await qc.invalidateQueries({ queryKey: workshopKeys.stories });
    },
    onSettled: () => {
      if (input.current) input.current.value = '';
    },
  });
  return (
    <div className="stories-tool" aria-labelledby="stories-import-title">
      <h2 id="stories-import-title" className="stories-tool__title">Import</h2>
      <label className="stories-tool__label" htmlFor="stories-import-file">A story file (.json) or a story archive (.tar)</label>
      <input id="stories-import-file" ref={input} className="stories-tool__file" type="file" accept=".json,.tar,application/json,application/x-tar"
        disabled={run.isPending} onChange={(e) => { const f = e.target.files?.[0]; if (f) { setDone(null); run.mutate(f); } }} />
      {run.isPending ? <p className="stories-tool__hint">Importing...</p> : null}
      {run.isError ? <Alert>{refusalText(run.error)}</Alert> : null}
      {done ? <Alert tone="success" testId="stories-imported"><Link to={`/admin/stories/${done.id}`}>{done.name || 'The story'}</Link>: {done.note}</Alert> : null}
    </div>
  );
}
