// /my-profile, /settings and /share-feedback (linked from the profile menu, accounts spec §2): one file per screen.
export { ProfilePage } from './profile-page.js';
export { SettingsPage } from './settings-page.js';
export { FeedbackPage } from './feedback-page.js';
