// When each language of each per-language value last changed, from the draft's revision history (the newest 200
// revisions: an English change older than that is not seen as making its French outdated). Read again whenever the
// draft's revision moves, so a saved English edit flags its French within a save.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.js';
import { translationAges, type RevisionDiff, type TranslationAges } from './translation-gaps.js';

export function useTranslationAges(storyId: string, revision: number): TranslationAges | undefined {
  const q = useQuery({
    queryKey: ['studio', 'translation-ages', storyId, revision],
    queryFn: async () => translationAges(await api.request<RevisionDiff[]>('GET', `/api/authoring/stories/${encodeURIComponent(storyId)}/history?limit=200`)),
    placeholderData: (prev) => prev,
    staleTime: Infinity,
    retry: false,
  });
  return q.data;
}
