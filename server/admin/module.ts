// Account and admin routes: who the caller is (GET /api/me: email, role (player, author or admin) and whether they
// are an admin, which the web app uses for the studio), player feedback (POST /api/feedback, GET /api/admin/feedback for admins) and a story's
// flow graph for the admin area (admins and the story's authors: it shows the whole plot). Runs after the media part
// (it reuses its AuthorsRepo: admin = looptale_private.user_roles, the role `looptale admins --add` grants).
import { z } from 'zod';
import type { RouteModule } from '../http/app.js';
import { HttpError } from '../http/errors.js';
import { route } from '../http/route.js';
import { layoutGraph } from '../../engine/story/graph-layout.js';
import { storyGraphModel } from '../../engine/story/graph.js';
import { USER_ROLES } from '../store/authors.js';
import { FEEDBACK_BODY_LIMIT, FeedbackInput, FeedbackRepo, FeedbackRow } from '../feedback/feedback.js';

export const Me = z.object({ id: z.string(), email: z.string().nullable(), role: z.enum(USER_ROLES), is_admin: z.boolean() });

export const adminModule: RouteModule = async (app, s) => {
  const repo = new FeedbackRepo(s.db);
  const isAdmin = (id: string) => s.authors.isAdmin(id);
  await app.register((scoped, _opts, done) => {
    // Bigger bodies are refused before they are parsed.
    scoped.addHook('onRoute', (opts) => {
      if (opts.url === '/api/feedback') opts.bodyLimit = FEEDBACK_BODY_LIMIT;
    });
    route(scoped, { method: 'GET', url: '/api/me', summary: 'The caller: id, email, role (player, author or admin) and whether they are an admin', tags: ['account'], auth: 'user', response: Me },
      async ({ user }) => {
        const role = await s.authors.userRole(user?.id ?? '');
        return { id: user?.id ?? '', email: user?.email ?? null, role, is_admin: role === 'admin' };
      });
    route(scoped, { method: 'POST', url: '/api/feedback', summary: 'Send feedback (5 a minute and 30 a day per user)', tags: ['account'], auth: 'user', body: FeedbackInput, response: FeedbackRow, status: 201 },
      async ({ body, user }) => {
        const row = await repo.add(user?.id ?? '', user?.email ?? null, body);
        if (!row) throw new HttpError(429, 'feedback/rate_limited', 'You have sent a lot of feedback just now. Please try again later.');
        return row;
      });
    route(scoped, { method: 'GET', url: '/api/admin/feedback', summary: 'Feedback, newest first (admins only)', tags: ['admin'], auth: 'user',
      query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50), before: z.coerce.number().int().min(1).optional() }), response: z.array(FeedbackRow) },
      async ({ query, user }) => {
        if (!(await isAdmin(user?.id ?? ''))) throw new HttpError(403, 'admin/required', 'Only admins can read feedback.');
        return repo.list(query.limit, query.before ?? null);
      });
    route(scoped, { method: 'GET', url: '/api/admin/stories/:id/graph', summary: "A story's moment graph, laid out (admins and the story's authors)", tags: ['admin'], auth: 'user',
      params: z.object({ id: z.uuid({ message: 'must be a story id (UUID)' }) }), query: z.object({ lang: z.enum(['en', 'fr']).default('en') }) },
      async ({ params, query, user }) => {
        if ((await s.authors.roleFor(user?.id ?? '', params.id)) === null) throw new HttpError(403, 'admin/required', 'Only admins and the story\'s authors can see its flow.');
        const story = await s.stories.getStory(params.id);
        if (!story) throw new HttpError(404, 'not_found', 'Story not found.');
        return layoutGraph(storyGraphModel(story, query.lang));
      });
    done();
  });
};
