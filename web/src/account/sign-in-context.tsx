// Opening the sign-in modal from anywhere (a story card, the top bar, an invitation link): one modal for the app.
// A card passes its rect (the modal grows out of it) and its story, which becomes the pending story.
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { setPendingStory } from '../auth/pending-story.js';
import { initialSignIn, SignInModal, type SignInStart } from './sign-in-modal.js';

export type OpenSignIn = (opts?: { origin?: DOMRect | null; storyId?: string; signUp?: boolean }) => void;

const SignInContext = createContext<OpenSignIn | null>(null);

export function useSignIn(): OpenSignIn {
  const open = useContext(SignInContext);
  if (!open) throw new Error('useSignIn needs a SignInProvider');
  return open;
}

export function SignInProvider({ children }: { children: ReactNode }) {
  const [params] = useSearchParams();
  const inviteToken = params.get('invite_token');
  const [state, setState] = useState<{ open: boolean; origin: DOMRect | null; start: SignInStart; opening: number }>({ open: false, origin: null, start: initialSignIn({ inviteToken }), opening: 0 });

  const open = useCallback<OpenSignIn>((opts = {}) => {
    if (opts.storyId) setPendingStory(opts.storyId);
    setState((s) => ({ open: true, origin: opts.origin ?? null, start: initialSignIn({ inviteToken, signUp: opts.signUp ?? false }), opening: s.opening + 1 }));
  }, [inviteToken]);

  const value = useMemo(() => open, [open]);
  return (
    <SignInContext.Provider value={value}>
      {children}
      <SignInModal
        key={state.opening}
        open={state.open}
        origin={state.origin}
        start={state.start}
        inviteToken={inviteToken}
        onClose={() => setState((s) => ({ ...s, open: false }))}
      />
    </SignInContext.Provider>
  );
}
