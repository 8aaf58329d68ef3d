// POST /marketing/waitlist_redeem (form-urlencoded or JSON: email, invite_token), sent by the web app after sign-in
// when the URL carried an invite_token. Redemption records that this account came in through this invitation: one
// invitation per account and one account per invitation. Sending the same pair again answers the same record (200).
// Only an invitation issued here (`issueInvitation`, `looptale waitlist invite`) for the caller's own address is
// accepted: a made-up token, or someone else's, is refused and recorded nowhere. Tokens are kept as SHA-256 digests.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Queryable } from '../db/db.js';
import { requireUser, type Services } from '../http/app.js';
import { HttpError, parseOr400 } from '../http/errors.js';
import { randomSecret, sha256 } from './tokens.js';
import { normalizeEmail } from './users.js';

/** Issues an invitation for `email`; returns its token (for the link `/?invite_token=...`; only its digest is kept). */
export async function issueInvitation(q: Queryable, email: string): Promise<string> {
  const e = normalizeEmail(email);
  if (!e) throw new Error(`not an email address: ${email}`);
  const token = randomSecret(24);
  await q.query('INSERT INTO marketing.waitlist_invitations (token_hash, email) VALUES ($1, $2)', [sha256(token), e]);
  return token;
}

const RedeemBody = z.object({
  email: z.string().trim().min(1, 'is required'),
  invite_token: z.string().trim().min(1, 'is required').max(512, 'must be at most 512 characters'),
});

type Redemption = { email: string; invite_token: string; redeemed_at: Date };

async function existing(q: Queryable, email: string, token: string): Promise<Redemption[]> {
  return (await q.query<Redemption>('SELECT email, invite_token, redeemed_at FROM marketing.waitlist_redemptions WHERE email = $1 OR invite_token = $2', [email, token])).rows;
}

export function waitlistRoutes(app: FastifyInstance, s: Services): void {
  app.post('/marketing/waitlist_redeem', async (req, reply) => {
    const user = requireUser(req);
    const b = parseOr400(RedeemBody, req.body ?? {}, 'body');
    const email = normalizeEmail(b.email);
    if (!email) throw new HttpError(400, 'waitlist/invalid_email', 'Invalid body: email must be an email address.');
    if (email !== user.email?.toLowerCase()) {
      throw new HttpError(403, 'waitlist/email_mismatch', 'The invitation email does not match the signed-in account.');
    }
    const digest = sha256(b.invite_token);
    const invited = await s.db.query('SELECT 1 FROM marketing.waitlist_invitations WHERE token_hash = $1 AND lower(email) = $2', [digest, email]);
    if (!invited.rows.length) {
      throw new HttpError(404, 'waitlist/invite_not_found', 'This invitation does not exist, or it was sent to another email address.');
    }
    const inserted = await s.db.query<Redemption>(
      `INSERT INTO marketing.waitlist_redemptions (email, invite_token, user_id) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING email, invite_token, redeemed_at`,
      [email, digest, user.id],
    );
    const row = inserted.rows[0];
    if (row) {
      s.log.info({ user: user.id }, 'waitlist invitation redeemed');
      return reply.code(201).send({ email: row.email, redeemed_at: row.redeemed_at.toISOString(), already_redeemed: false });
    }
    const rows = await existing(s.db, email, digest);
    const same = rows.find((r) => r.email === email && r.invite_token === digest);
    if (same) return reply.code(200).send({ email: same.email, redeemed_at: same.redeemed_at.toISOString(), already_redeemed: true });
    if (rows.some((r) => r.invite_token === digest)) {
      throw new HttpError(409, 'waitlist/invite_already_redeemed', 'This invitation has already been redeemed by another account.');
    }
    throw new HttpError(409, 'waitlist/already_redeemed', 'This account has already redeemed another invitation.');
  });
}
