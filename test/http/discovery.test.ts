import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_CSP } from '../../src/http/page-headers.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';

/** Every operation of the interface (docs/interface.md), with its method and path. */
const OPERATIONS: Record<string, [string, string]> = {
  issueDeviceToken: ['post', '/functions/svc-device-token-issue'],
  initLinkCode: ['post', '/functions/svc-link-code-init'],
  exchangeLinkCode: ['post', '/functions/svc-link-code-exchange'],
  ingestUsage: ['post', '/functions/svc-ingest'],
  recordSyncPing: ['post', '/functions/svc-sync-ping'],
  getUserStatus: ['get', '/functions/svc-user-status'],
  getUsageSummary: ['get', '/functions/svc-usage-summary'],
  getProjectUsageSummary: ['get', '/functions/svc-project-usage-summary'],
  getUsageModelBreakdown: ['get', '/functions/svc-usage-model-breakdown'],
  getUsageDaily: ['get', '/functions/svc-usage-daily'],
  getUsageHourly: ['get', '/functions/svc-usage-hourly'],
  getUsageMonthly: ['get', '/functions/svc-usage-monthly'],
  getUsageHeatmap: ['get', '/functions/svc-usage-heatmap'],
  getLeaderboard: ['get', '/functions/svc-leaderboard'],
  getLeaderboardProfile: ['get', '/functions/svc-leaderboard-profile'],
  getPublicViewProfile: ['get', '/functions/svc-public-view-profile'],
  getPublicVisibility: ['get', '/functions/svc-public-visibility'],
  setPublicVisibility: ['post', '/functions/svc-public-visibility'],
  refreshLeaderboard: ['post', '/functions/svc-leaderboard-refresh'],
  syncPricing: ['post', '/functions/svc-pricing-sync'],
  purgeEvents: ['post', '/functions/svc-events-retention'],
  debugAuth: ['get', '/functions/svc-debug-auth'],
};

/** Operations added beyond the interface (docs/sharing.md): method, path and security. */
const ADDED: Record<string, [string, string, string[]]> = {
  otlpExportMetrics: ['post', '/v1/metrics', ['DeviceToken']],
  otlpExportLogs: ['post', '/v1/logs', ['DeviceToken']],
  otlpExportTraces: ['post', '/v1/traces', ['DeviceToken']],
  exportUsage: ['get', '/functions/svc-export', ['UserJWT']],
  deleteAccount: ['post', '/functions/svc-account-delete', ['UserJWT']],
  getBadge: ['get', '/badge/{file}', []],
  getCard: ['get', '/card/{file}', []],
  getProfileSettings: ['get', '/functions/svc-profile-settings', ['UserJWT']],
  setProfileSettings: ['post', '/functions/svc-profile-settings', ['UserJWT']],
  getPublicProfilePage: ['get', '/functions/svc-public-profile', ['UserJWT', '(none)']],
  listDevices: ['get', '/functions/svc-devices', ['UserJWT']],
  renameDevice: ['post', '/functions/svc-device-rename', ['UserJWT']],
  revokeDevice: ['post', '/functions/svc-device-revoke', ['UserJWT']],
  adminListUsers: ['get', '/functions/svc-admin-users', ['UserJWT', 'ServiceRoleKey']],
  adminUpdateUser: ['post', '/functions/svc-admin-user-update', ['UserJWT', 'ServiceRoleKey']],
  adminDeleteUser: ['post', '/functions/svc-admin-user-delete', ['UserJWT', 'ServiceRoleKey']],
  adminCreateResetLink: ['post', '/functions/svc-admin-reset-link', ['UserJWT', 'ServiceRoleKey']],
  adminCreateInvite: ['post', '/functions/svc-admin-invite-create', ['UserJWT', 'ServiceRoleKey']],
  adminListInvites: ['get', '/functions/svc-admin-invites', ['UserJWT', 'ServiceRoleKey']],
  adminRevokeInvite: ['post', '/functions/svc-admin-invite-revoke', ['UserJWT', 'ServiceRoleKey']],
  adminGetSignupSettings: ['get', '/functions/svc-admin-settings', ['UserJWT', 'ServiceRoleKey']],
  adminUpdateSignupSettings: ['post', '/functions/svc-admin-settings', ['UserJWT', 'ServiceRoleKey']],
  createApiToken: ['post', '/functions/svc-api-token-create', ['UserJWT']],
  listApiTokens: ['get', '/functions/svc-api-tokens', ['UserJWT']],
  revokeApiToken: ['post', '/functions/svc-api-token-revoke', ['UserJWT']],
  setBudget: ['post', '/functions/svc-budget-set', ['UserJWT']],
  listBudgets: ['get', '/functions/svc-budgets', ['UserJWT']],
  deleteBudget: ['post', '/functions/svc-budget-delete', ['UserJWT']],
  listBudgetAlerts: ['get', '/functions/svc-budget-alerts', ['UserJWT']],
  dismissBudgetAlert: ['post', '/functions/svc-budget-alert-dismiss', ['UserJWT']],
  createWebhook: ['post', '/functions/svc-webhook-create', ['UserJWT']],
  listWebhooks: ['get', '/functions/svc-webhooks', ['UserJWT']],
  deleteWebhook: ['post', '/functions/svc-webhook-delete', ['UserJWT']],
  testWebhook: ['post', '/functions/svc-webhook-test', ['UserJWT']],
  listWebhookDeliveries: ['get', '/functions/svc-webhook-deliveries', ['UserJWT']],
  createTeam: ['post', '/functions/svc-team-create', ['UserJWT']],
  listTeams: ['get', '/functions/svc-teams', ['UserJWT']],
  updateTeam: ['post', '/functions/svc-team-update', ['UserJWT']],
  deleteTeam: ['post', '/functions/svc-team-delete', ['UserJWT']],
  createTeamInvite: ['post', '/functions/svc-team-invite-create', ['UserJWT']],
  listTeamInvites: ['get', '/functions/svc-team-invites', ['UserJWT']],
  revokeTeamInvite: ['post', '/functions/svc-team-invite-revoke', ['UserJWT']],
  joinTeam: ['post', '/functions/svc-team-join', ['UserJWT']],
  listTeamMembers: ['get', '/functions/svc-team-members', ['UserJWT']],
  updateTeamMember: ['post', '/functions/svc-team-member-update', ['UserJWT']],
  removeTeamMember: ['post', '/functions/svc-team-member-remove', ['UserJWT']],
  getTeamUsage: ['get', '/functions/svc-team-usage', ['UserJWT']],
  getTeamLeaderboard: ['get', '/functions/svc-team-leaderboard', ['UserJWT']],
};

/** Expected security schemes per operation (an empty object = callable without credentials). */
const SECURITY: Record<string, string[]> = {
  issueDeviceToken: ['UserJWT', 'ServiceRoleKey'],
  exchangeLinkCode: [],
  ingestUsage: ['DeviceToken'],
  getLeaderboard: ['UserJWT', '(none)'],
  getLeaderboardProfile: ['UserJWT', '(none)'],
  getPublicViewProfile: ['ShareToken'],
  getPublicVisibility: ['UserJWT'],
  setPublicVisibility: ['UserJWT'],
  refreshLeaderboard: ['ServiceRoleKey'],
  syncPricing: ['ServiceRoleKey'],
  purgeEvents: ['ServiceRoleKey'],
  debugAuth: ['UserJWT', '(none)'],
};

interface OpenApiOperation {
  operationId?: string;
  security?: Record<string, string[]>[];
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface OpenApiDoc {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { securitySchemes: Record<string, unknown> };
}

describe(`discovery documents (${engine})`, () => {
  let t: TestApp;
  let doc: OpenApiDoc;
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<OpenApiDoc>();
  });
  afterAll(async () => t.close());

  it('serves an OpenAPI 3.1 document that a real validator accepts', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('0.6.4');
    const result = await new Validator().validate(doc as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'DeviceToken',
      'ServiceRoleKey',
      'ShareToken',
      'UserJWT',
    ]);
  });

  it('describes every operation of the interface with schemas, security and error responses', () => {
    const found = new Map<string, [string, string, OpenApiOperation]>();
    for (const [p, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods))
        if (op.operationId) found.set(op.operationId, [method, p, op]);
    }
    const all = { ...OPERATIONS, ...ADDED };
    const missing = Object.keys(all).filter((id) => !found.has(id));
    expect(missing).toEqual([]);
    expect(found.size).toBe(22 + Object.keys(ADDED).length);
    for (const [id, [method, p, security]] of Object.entries(ADDED)) {
      const [m, path, op] = found.get(id) ?? [];
      expect([m, path, (op?.security ?? []).map((s) => Object.keys(s)[0] ?? '(none)')], id).toEqual([
        method,
        p,
        security,
      ]);
    }
    for (const [id, [method, p]] of Object.entries(OPERATIONS)) {
      const [m, path, op] = found.get(id) as [string, string, OpenApiOperation];
      expect([m, path], id).toEqual([method, p]);
      expect(op.responses?.['200']?.content?.['application/json']?.schema, `${id} 200 schema`).toBeDefined();
      const errors = Object.keys(op.responses ?? {}).filter((s) => s !== '200');
      if (id !== 'debugAuth') expect(errors.length, `${id} error responses`).toBeGreaterThan(0);
      const schemes = (op.security ?? []).map((s) => Object.keys(s)[0] ?? '(none)');
      if (SECURITY[id]) expect(schemes, `${id} security`).toEqual(SECURITY[id]);
    }
  });

  it('serves the auth and webhooks guides, llms.txt and the tool manifest', async () => {
    const auth = await t.app.inject({ method: 'GET', url: '/docs/auth' });
    expect(auth.statusCode).toBe(200);
    expect(auth.headers['content-type']).toMatch(/^text\/html/);
    for (const word of [
      'UserJWT',
      'DeviceToken',
      'ShareToken',
      'ServiceRoleKey',
      'apikey',
      '/auth/v1/token',
      'svc-link-code-exchange',
      'svc-public-visibility',
    ]) {
      expect(auth.body).toContain(word);
    }
    const hooks = await t.app.inject({ method: 'GET', url: '/docs/webhooks' });
    expect(hooks.statusCode).toBe(200);
    for (const word of ['budget.threshold_crossed', 'usage.daily', 'webhook-signature', 'standardwebhooks'])
      expect(hooks.body).toContain(word);
    const llms = await t.app.inject({ method: 'GET', url: '/llms.txt' });
    expect(llms.headers['content-type']).toMatch(/^text\/plain/);
    expect(llms.body).toMatch(/^# Tokentally/);
    for (const link of ['/openapi.json', '/docs/auth', '/docs/webhooks']) expect(llms.body).toContain(link);
    const plugin = await t.app.inject({ method: 'GET', url: '/.well-known/ai-plugin.json' });
    expect(plugin.statusCode).toBe(200);
    expect(plugin.json()).toMatchObject({
      schema_version: 'v1',
      name_for_model: 'tokentally',
      api: { type: 'openapi', url: expect.stringMatching(/\/openapi\.json$/) },
    });
    const landing = await t.app.inject({ method: 'GET', url: '/' });
    for (const link of ['/docs/auth', '/docs/webhooks', '/llms.txt']) expect(landing.body).toContain(link);
  });

  it("serves the guides with the dashboard pages' Content-Security-Policy, their style from this origin", async () => {
    const dashboard = await t.app.inject({ method: 'GET', url: '/settings' });
    expect(dashboard.headers['content-security-policy']).toBe(PAGE_CSP);
    for (const url of ['/docs/auth', '/docs/webhooks']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy'], url).toBe(PAGE_CSP);
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      // The CSP allows no inline style: the page links its stylesheet instead.
      expect(res.body, url).not.toMatch(/<style|style=/);
      expect(res.body, url).toContain('<link rel="stylesheet" href="/docs/style.css">');
    }
    const css = await t.app.inject({ method: 'GET', url: '/docs/style.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  });
});
