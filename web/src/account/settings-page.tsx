// /settings (not shown in the spec; issue #9: volume, language, reduced motion), kept in this browser: volume 0-100 %
// (default 1, accounts spec §9), the game language (the same global choice the launch screen's EN/FR toggle sets),
// and motion (follow the system, reduce, or full). Changes apply at once; nothing to save.
import type { PlayLanguage } from '../../../engine/schema/enums.js';
import { type ReducedMotion, updateSettings, useSettings } from '../ui/settings.js';
import './account-pages.css';

export const SETTINGS_TEXT = {
  title: 'Settings',
  intro: 'These settings are kept in this browser and apply at once.',
  volume: 'Volume',
  language: 'Game language',
  languageHint: 'Stories start in this language; the launch screen can change it for one story.',
  motion: 'Motion',
} as const;

const MOTION: { value: ReducedMotion; label: string }[] = [
  { value: 'system', label: 'Follow my device' },
  { value: 'on', label: 'Reduce motion' },
  { value: 'off', label: 'Full motion' },
];

export function SettingsPage() {
  const s = useSettings();
  const volume = Math.round(s.volume * 100);
  return (
    <div className="page account-page">
      <h1>{SETTINGS_TEXT.title}</h1>
      <p>{SETTINGS_TEXT.intro}</p>
      <section className="account-card" aria-labelledby="sound-title">
        <h2 id="sound-title">Sound</h2>
        <label className="account-range" htmlFor="volume">
          <span>{SETTINGS_TEXT.volume}</span>
          <input id="volume" type="range" min={0} max={100} step={5} value={volume} aria-valuetext={`${volume}%`} onChange={(e) => updateSettings({ volume: Number(e.target.value) / 100 })} />
          <output htmlFor="volume" data-testid="volume-value">{volume}%</output>
        </label>
      </section>
      <section className="account-card" aria-labelledby="language-title">
        <h2 id="language-title">Language</h2>
        <div className="field">
          <label className="field__label" htmlFor="language">{SETTINGS_TEXT.language}</label>
          <select id="language" className="field__input account-select" value={s.language} onChange={(e) => updateSettings({ language: e.target.value as PlayLanguage })} aria-describedby="language-hint">
            <option value="english">English</option>
            <option value="french">Français</option>
          </select>
          <p id="language-hint" className="field__hint">{SETTINGS_TEXT.languageHint}</p>
        </div>
      </section>
      <fieldset className="account-card account-radios">
        <legend>{SETTINGS_TEXT.motion}</legend>
        {MOTION.map((m) => (
          <label key={m.value}>
            <input type="radio" name="motion" value={m.value} checked={s.reducedMotion === m.value} onChange={() => updateSettings({ reducedMotion: m.value })} />
            {m.label}
          </label>
        ))}
      </fieldset>
    </div>
  );
}
