// A new story: a name and what it starts from (a blank story, the smallest one that can be published, or a template:
// a story shipped with the server, copied under new ids with its media). Opens the new story's page.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert } from '../../ui/alert.js';
import { Button } from '../../ui/button.js';
import { refusalText, workshop, workshopKeys } from './workshop-api.js';

export function NewStory() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const templates = useQuery({ queryKey: workshopKeys.templates, queryFn: workshop.templates, staleTime: 10 * 60_000 });
  const [name, setName] = useState('');
  const [template, setTemplate] = useState('blank');
  const create = useMutation({
    mutationFn: () => workshop.fromTemplate(template, name.trim() || undefined),
    onSuccess: async (w) => {
      await qc.invalidateQueries({ queryKey: workshopKeys.stories });
      void navigate(`/admin/stories/${w.draft.story_id}`);
    },
  });
  const chosen = templates.data?.find((t) => t.id === template);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form className="stories-tool" onSubmit={submit} aria-labelledby="stories-new-title">
      <h2 id="stories-new-title" className="stories-tool__title">New story</h2>
      <div className="stories-tool__fields">
        <div className="stories-tool__field">
          <label className="stories-tool__label" htmlFor="stories-new-name">Name</label>
          <input id="stories-new-name" className="stories-tool__input" value={name} maxLength={120} placeholder="Untitled story" onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="stories-tool__field">
          <label className="stories-tool__label" htmlFor="stories-new-template">Start from</label>
          <select id="stories-new-template" className="stories-tool__input" value={template} onChange={(e) => setTemplate(e.target.value)}>
            {(templates.data ?? [{ id: 'blank', name: 'Blank story', description: '', moments: 2 }]).map((t) => (
              <option key={t.id} value={t.id}>{t.id === 'blank' ? 'Nothing (a blank story)' : `Template: ${t.name}`}</option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="primary" busy={create.isPending} busyLabel="Creating...">Create story</Button>
      </div>
      {chosen ? <p className="stories-tool__hint">{chosen.description} ({chosen.moments} moments)</p> : null}
      {create.isError ? <Alert>{refusalText(create.error)}</Alert> : null}
    </form>
  );
}
