// /browse: the public catalogue signed out, the personal catalogue signed in (accounts spec §2 route table).
import { useSession } from '../auth/session.js';
import { PersonalCatalogue } from './personal-catalogue.js';
import { PublicCatalogue } from './public-catalogue.js';

export function BrowsePage() {
  const { state } = useSession();
  return state.status === 'signed_in' ? <PersonalCatalogue /> : <PublicCatalogue />;
}
