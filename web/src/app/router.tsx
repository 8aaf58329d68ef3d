// The route table of accounts spec §2. The game screen and the admin area are loaded on demand, each with a spinner
// meanwhile, so /browse never ships them. Declarative routes (BrowserRouter): the data router's loaders and actions
// are not used (server state lives in TanStack Query), and leaving them out keeps ~10 KB gzip off every page.
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { FeedbackPage, ProfilePage, SettingsPage } from '../account/account-pages.js';
import { LoginPage } from '../account/login-page.js';
import { BrowsePage } from '../catalogue/browse-page.js';
import { LaunchPage } from '../launch/launch-page.js';
import { FullPageSpinner } from '../ui/spinner.js';
import { RedirectKeepingQuery, RequireAuth, RootLayout, ShellLayout, UnknownPath } from './layouts.js';

const GamePage = lazy(() => import('../game/game-page.js'));
const AdminArea = lazy(() => import('../admin/admin-area.js'));

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<RootLayout />}>
        <Route index element={<RedirectKeepingQuery to="/browse" />} />
        <Route path="game" element={<RedirectKeepingQuery to="/" />} />
        <Route element={<RequireAuth />}>
          <Route path="launch/:storyId" element={<LaunchPage />} />
          <Route path="game/:playerStoryId" element={<Suspense fallback={<FullPageSpinner />}><GamePage /></Suspense>} />
        </Route>
        <Route element={<ShellLayout />}>
          <Route path="login" element={<LoginPage />} />
          <Route path="signup" element={<LoginPage signUp />} />
          <Route path="browse" element={<BrowsePage />} />
          <Route element={<RequireAuth />}>
            <Route path="my-profile" element={<ProfilePage />} />
            <Route path="settings" element={<SettingsPage />} />
            <Route path="share-feedback" element={<FeedbackPage />} />
            <Route path="admin/*" element={<Suspense fallback={<FullPageSpinner label="Loading the studio..." />}><AdminArea /></Suspense>} />
          </Route>
          <Route path="*" element={<UnknownPath />} />
        </Route>
      </Route>
    </Routes>
  );
}
