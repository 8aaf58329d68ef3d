// Every part of the server, in start-up order. A part sets up its services and registers its routes.
import { authModule } from './auth/module.js';
import type { RouteModule } from './http/app.js';
import { healthRoutes } from './http/health.js';
import { metricsRoutes } from './http/metrics.js';
import { openApiRoutes } from './http/openapi.js';
import { mediaModule } from './media/module.js';
import { storeModule } from './store/module.js';
import { gameModule } from './game/module.js';

export const MODULES: RouteModule[] = [
  healthRoutes,
  metricsRoutes,
  authModule,
  storeModule,
  gameModule,
  mediaModule,
  openApiRoutes, // last: documents every route declared before it
];
