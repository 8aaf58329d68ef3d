// Where media live. Three stores behind one interface, in Supabase Storage's layout ({bucket}/{storyId}/{file}):
//   disk      MEDIA_DIR (default DATA_DIR/media): one machine (the default without DATABASE_URL);
//   database  looptale_private.media_objects: every server process on one PostgreSQL serves every file (the default
//             with DATABASE_URL);
//   supabase  a Supabase project's Storage over its HTTP API (MEDIA_STORE=supabase, SUPABASE_URL and
//             SUPABASE_SERVICE_ROLE_KEY).
// The /storage/v1 routes serve from whichever is configured; resized variants are a per-process cache on local disk.
import type { Readable } from 'node:stream';
import { join, resolve, sep } from 'node:path';
import type { Config } from '../config.js';
import type { Db } from '../db/db.js';
import { Bucket, FileName, StoryId, type StoredObject } from './storage.js';

export type ByteRange = { start: number; end: number };

export interface MediaStore {
  readonly kind: 'disk' | 'database' | 'supabase';
  /** Where this process keeps rendered variants (a cache: the store holds the originals). */
  readonly cacheRoot: string;
  stat(bucket: Bucket, storyId: string, file: string): Promise<StoredObject | null>;
  /** The object's bytes (all, or `range` inclusive), or null when it does not exist. */
  read(bucket: Bucket, storyId: string, file: string, range?: ByteRange): Promise<Readable | Buffer | null>;
  /** The story's files, by name. */
  list(bucket: Bucket, storyId: string): Promise<StoredObject[]>;
  /** Story ids that have files in the bucket. */
  stories(bucket: Bucket): Promise<string[]>;
  /** Stores bytes; 'exists' (nothing written) when the object exists and `upsert` is off. Readers never see a partial object. */
  put(bucket: Bucket, storyId: string, file: string, body: Buffer, upsert: boolean): Promise<'created' | 'replaced' | 'exists'>;
}

/** The folder of one object's rendered variants under the store's cache root (segments validated: never outside it). */
export function variantDir(store: MediaStore, bucket: Bucket, storyId: string, file: string): string {
  Bucket.parse(bucket);
  StoryId.parse(storyId);
  FileName.parse(file);
  const root = resolve(store.cacheRoot);
  const p = resolve(root, bucket, storyId, file);
  if (!p.startsWith(root + sep)) throw new Error(`media: ${p} is outside ${root}`);
  return p;
}

/** Every byte of an object, or null. */
export async function readAll(store: MediaStore, bucket: Bucket, storyId: string, file: string): Promise<Buffer | null> {
  const body = await store.read(bucket, storyId, file);
  if (body === null || Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export type MediaStoreKind = MediaStore['kind'];

/** MEDIA_STORE, or its default: the database when DATABASE_URL is set (several processes), else the disk. */
export function mediaStoreKind(config: Config): MediaStoreKind {
  return config.MEDIA_STORE ?? (config.DATABASE_URL ? 'database' : 'disk');
}

export async function openMediaStore(config: Config, db: Db): Promise<MediaStore> {
  const kind = mediaStoreKind(config);
  const disk = join(config.DATA_DIR, 'media-cache');
  if (kind === 'database') {
    const { DatabaseMediaStore } = await import('./db-store.js');
    return new DatabaseMediaStore(db, disk);
  }
  if (kind === 'supabase') {
    const { SupabaseMediaStore } = await import('./supabase-store.js');
    return new SupabaseMediaStore({ url: config.SUPABASE_URL!, serviceKey: config.SUPABASE_SERVICE_ROLE_KEY!, cacheRoot: disk });
  }
  const { MediaStorage, mediaDir } = await import('./storage.js');
  return new MediaStorage(mediaDir(config));
}
