// The picture a card shows when its story gives it none (a story's items often have no image, and a card gained
// mid-moment has none until the next game view): a drawn emblem of its kind on the card's colours, not a letter.
export type GlyphKind = 'character' | 'item' | 'opponent';

const PATHS: Record<GlyphKind, string> = {
  // A head and shoulders.
  character: 'M32 14a10 10 0 1 1 0 20a10 10 0 1 1 0-20Zm-17 38c0-9 8-15 17-15s17 6 17 15Z',
  // A cut gem.
  item: 'M20 16h24l8 11l-20 25l-20-25Zm-8 11h40M26 16l-4 11l10 25l10-25l-4-11',
  // A horned helm.
  opponent: 'M18 20q0-8 6-12q-1 8 3 10h10q4-2 3-10q6 4 6 12v14q0 10-14 16q-14-6-14-16Zm6 14h16',
};

export function CardGlyph({ kind, className }: { kind: GlyphKind; className?: string }) {
  const stroke = kind === 'item';
  return (
    <svg className={className} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <path
        d={PATHS[kind]}
        fill={stroke ? 'rgb(255 255 255 / 0.12)' : 'rgb(255 255 255 / 0.55)'}
        stroke={stroke ? 'rgb(255 255 255 / 0.6)' : 'none'}
        strokeWidth={2.5}
        strokeLinejoin="round"
      />
    </svg>
  );
}
