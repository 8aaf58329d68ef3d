// Every part of the server, in start-up order. A part sets up its services and registers its routes.
import { authModule } from './auth/module.js';
import type { RouteModule } from './http/app.js';
import { healthRoutes } from './http/health.js';
import { metricsRoutes } from './http/metrics.js';
import { openApiRoutes } from './http/openapi.js';
import { DEFAULT_WEB_DIST, webAppRoutes } from './http/web-app.js';
import { mediaModule } from './media/module.js';
import { storeModule } from './store/module.js';
import { gameModule } from './game/module.js';
import { adminModule } from './admin/module.js';
import { authoringModule } from './authoring/module.js';

export const MODULES: RouteModule[] = [
  healthRoutes,
  metricsRoutes,
  authModule,
  storeModule,
  gameModule,
  mediaModule,
  adminModule,
  authoringModule,
  openApiRoutes, // documents every route declared before it
  // Last: the web app and its SPA fallback, behind every route of the server.
  (app, services) => webAppRoutes(services.config.WEB_DIST ?? DEFAULT_WEB_DIST)(app, services),
];
