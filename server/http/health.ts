import type { RouteModule } from './app.js';

export const healthRoutes: RouteModule = (app, s) => {
  app.get('/healthz', async () => {
    await s.db.query('SELECT 1');
    return { ok: true, database: s.db.kind };
  });
};
