// An image or a sound of the story with its upload: the file goes to the story's storage folder (the server checks
// its type and size and re-encodes images), then the story file names it. A wrong type or a file too large says so
// and changes nothing. Images show a crop preview at each size players get them in (object-fit cover: the server's
// resize=cover), so the author sees what a 16:9 hero or a 4:3 card keeps of the picture.
import { useId, useState } from 'react';
import { Alert } from '../../ui/alert.js';
import { Button } from '../../ui/button.js';
import { refusalText, sendBytes } from '../stories/workshop-api.js';
import { mediaUrl } from './catalogue-model.js';

/** The server's default MEDIA_MAX_FILE_BYTES: a larger file is refused before it is sent (the server checks too). */
const MAX_BYTES = 10 * 1024 * 1024;

const KINDS = {
  image: { types: { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' } as Record<string, string>, words: 'a PNG, JPEG or WebP image', folder: 'images' },
  sound: { types: { 'audio/mpeg': 'mp3', 'audio/mp3': 'mp3', 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/wave': 'wav' } as Record<string, string>, words: 'an MP3 or WAV sound', folder: 'sounds' },
} as const;

/** Why this file cannot be uploaded here, or null. */
export function uploadProblem(kind: 'image' | 'sound', file: { name: string; type: string; size: number }): string | null {
  if (!KINDS[kind].types[file.type]) return `"${file.name}" is not ${KINDS[kind].words} (${file.type || 'unknown type'}): nothing was changed.`;
  if (file.size > MAX_BYTES) return `"${file.name}" is ${(file.size / 1024 / 1024).toFixed(1)} MB: at most ${MAX_BYTES / 1024 / 1024} MB. Nothing was changed.`;
  return null;
}

export type MediaFieldProps = {
  storyId: string;
  kind: 'image' | 'sound';
  label: string;
  /** The story-relative path ("images/logo.png"), '' when none. */
  value: string;
  /** A slug for the stored file's name ("background"). */
  slot: string;
  sizes?: readonly { label: string; width: number; height: number }[];
  onChange: (path: string) => void;
  onClear?: () => void;
};

export function MediaField({ storyId, kind, label, value, slot, sizes = [], onChange, onClear }: MediaFieldProps) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const url = mediaUrl(storyId, value, kind);
  async function upload(file: File) {
    setError(null);
    const problem = uploadProblem(kind, file);
    if (problem) {
      setError(problem);
      return;
    }
    const name = `${slot}-${Date.now().toString(36)}.${KINDS[kind].types[file.type] ?? 'bin'}`;
    setBusy(true);
    try {
      await sendBytes('POST', `/storage/v1/object/${kind}/${encodeURIComponent(storyId)}/${name}`, file, file.type, { 'x-upsert': 'true' });
      onChange(`${KINDS[kind].folder}/${name}`);
    } catch (e) {
      setError(`"${file.name}" was not uploaded: ${refusalText(e)}`);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="cat-media" data-testid={`cat-media-${slot}`}>
      <label className="cat-label" htmlFor={id}>{label}</label>
      <div className="cat-media__row">
        <input id={id} className="cat-media__file" type="file" accept={Object.keys(KINDS[kind].types).join(',')} disabled={busy}
          onChange={(e) => { const f = e.target.files?.[0]; e.target.value = ''; if (f) void upload(f); }} />
        {value && onClear ? <Button size="sm" variant="ghost" onClick={onClear}>Remove</Button> : null}
      </div>
      {busy ? <p className="cat-hint">Uploading...</p> : null}
      {error ? <Alert>{error}</Alert> : null}
      {value ? <p className="cat-hint cat-media__path">{value}</p> : <p className="cat-hint">None yet.</p>}
      {value && kind === 'sound' ? <audio className="cat-media__audio" controls preload="none" src={url} /> : null}
      {value && kind === 'image' && sizes.length > 0 ? (
        <div className="cat-crops">
          {sizes.map((s) => (
            <figure key={s.label} className="cat-crop">
              <div className="cat-crop__frame" style={{ aspectRatio: `${s.width} / ${s.height}` }}>
                <img src={url} alt={`${label} cropped to ${s.width}x${s.height}`} />
              </div>
              <figcaption>{s.label} {s.width}×{s.height}</figcaption>
            </figure>
          ))}
        </div>
      ) : null}
    </div>
  );
}
