// Every part of the server, in start-up order. A part sets up its services and registers its routes.
import type { RouteModule } from './http/app.js';
import { healthRoutes } from './http/health.js';

export const MODULES: RouteModule[] = [
  healthRoutes,
];
