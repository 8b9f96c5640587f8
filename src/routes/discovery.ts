/** @fileoverview The OpenAPI document (the dashboard at / is routes/dashboard.ts). */
import type { App } from '../app-types.js';

export function registerDiscoveryRoutes(app: App): void {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
