/**
 * The CLI notices agents configured to send their usage to the linked server over OTLP (real
 * settings files in a temporary home, the environment for Copilot CLI): `sync` does not read their
 * logs (nothing counted twice) and says so, as do `status` and `doctor`. An agent exporting
 * elsewhere, or with telemetry off, is read as before.
 */
import path from 'node:path';
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentRoots } from '../../src/cli/paths.js';
import { codexExportsTo, otlpExporters } from '../../src/cli/otlp-exporters.js';
import { startFakeServer, type FakeServer } from './fake-server.js';
import { makeHome, removeHome, run, writeJson, writeJsonl, type TestHome } from './helpers.js';

let h: TestHome;
let srv: FakeServer;
beforeEach(async () => {
  h = makeHome();
  srv = await startFakeServer();
});
afterEach(async () => {
  await srv.close();
  removeHome(h);
});

const claudeLine = (n: number) => ({
  type: 'assistant',
  timestamp: '2026-11-01T10:00:00Z',
  cwd: '/nonexistent/p',
  sessionId: 's',
  requestId: `req_${n}`,
  message: {
    id: `msg_${n}`,
    model: 'claude-opus-4-1',
    usage: { input_tokens: 100, cache_read_input_tokens: 1000, cache_creation_input_tokens: 0, output_tokens: 10 },
  },
});
const geminiChat = () => ({
  sessionId: 'g1',
  messages: [
    {
      id: 'm1',
      type: 'gemini',
      timestamp: '2026-11-01T10:00:00Z',
      model: 'gemini-2.5-pro',
      tokens: { input: 500, output: 40, cached: 0, thoughts: 0, tool: 0, total: 540 },
    },
  ],
});

async function link(): Promise<void> {
  const r = await run(h.env, ['link', '--server', srv.url, '--code', 'ABCD-EFGH-JKMN', '--device-name', 'otlp-box']);
  expect(r.code, r.stderr).toBe(0);
}

function configure(): void {
  const claudeDir = h.env['CLAUDE_CONFIG_DIR'] as string;
  writeJson(path.join(claudeDir, 'settings.json'), {
    env: {
      CLAUDE_CODE_ENABLE_TELEMETRY: '1',
      OTEL_LOGS_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_ENDPOINT: srv.url,
      OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer tt_dev_x',
    },
  });
  writeJsonl(path.join(claudeDir, 'projects', 'p', 's.jsonl'), [claudeLine(1)]);
  const codexHome = h.env['CODEX_HOME'] as string;
  fs.mkdirSync(codexHome, { recursive: true });
  fs.writeFileSync(
    path.join(codexHome, 'config.toml'),
    `model = "gpt-5"\n\n[otel]\nlog_user_prompt = false\nexporter = { otlp-http = { endpoint = "${srv.url}/v1/logs", protocol = "binary", headers = { "Authorization" = "Bearer tt_dev_x" } } }\n`,
  );
  // Gemini CLI exports elsewhere: its logs are still read.
  const geminiDir = path.join(h.env['GEMINI_CLI_HOME'] as string, '.gemini');
  writeJson(path.join(geminiDir, 'settings.json'), {
    telemetry: { enabled: true, target: 'local', otlpEndpoint: 'https://collector.example.com', otlpProtocol: 'http' },
  });
  writeJson(path.join(geminiDir, 'tmp', 'abc', 'chats', 'session-1.json'), geminiChat());
  // Qwen Code points here with telemetry off: not an exporter.
  writeJson(path.join(h.env['QWEN_HOME'] as string, 'settings.json'), {
    telemetry: { enabled: false, otlpEndpoint: srv.url },
  });
  h.env['COPILOT_OTEL_ENABLED'] = 'true';
  h.env['OTEL_EXPORTER_OTLP_ENDPOINT'] = `${srv.url}/`;
}

describe('agents exporting to the linked server over OTLP', () => {
  it('are not read by sync, and status and doctor say so', async () => {
    await link();
    configure();
    const sync = await run(h.env, ['sync']);
    expect(sync.code, sync.stderr).toBe(0);
    const said = sync.stdout + sync.stderr;
    expect(said).toMatch(/claude: sends its usage to this server over OTLP \(.*settings\.json\)/);
    expect(said).toMatch(/codex: sends its usage to this server over OTLP \(.*config\.toml\)/);
    expect(said).toMatch(/copilot: sends its usage to this server over OTLP \(the environment\)/);
    const sources = new Set([...srv.buckets.values()].map((b) => b.source));
    expect(sources.has('claude')).toBe(false);
    expect(sources.has('gemini')).toBe(true);

    const status = await run(h.env, ['status', '--json']);
    const body = JSON.parse(status.stdout) as { otlp_exporters: Array<{ agent: string }> };
    expect(body.otlp_exporters.map((e) => e.agent)).toEqual(['claude', 'codex', 'copilot']);
    const text = await run(h.env, ['status']);
    expect(text.stdout).toContain('claude: sends its usage to this server over OTLP');

    const doctor = await run(h.env, ['doctor']);
    expect(doctor.stdout).toMatch(/ok\s+codex: sends its usage to this server over OTLP/);
    expect(doctor.stdout).not.toMatch(/claude: \d+ log file/);
  });

  it('reads every agent before linking, and nothing exported elsewhere is skipped', async () => {
    configure();
    expect(otlpExporters(h.env, agentRoots(h.env), undefined)).toEqual([]);
    expect(otlpExporters(h.env, agentRoots(h.env), 'https://other.example.com')).toEqual([]);
    const sync = await run(h.env, ['sync', '--no-upload']);
    expect(sync.stdout + sync.stderr).toMatch(/claude: 1 file read/);
    expect(sync.stdout + sync.stderr).not.toMatch(/over OTLP/);
  });

  it("reads Codex's [otel] tables inline or as tables, ignoring comments and other tables", () => {
    const here = (url: string) => url.startsWith('https://tt.example.com');
    expect(
      codexExportsTo('[otel]\nexporter = { otlp-http = { endpoint = "https://tt.example.com/v1/logs" } }', here),
    ).toBe(true);
    expect(codexExportsTo('[otel.exporter.otlp-http]\nendpoint = "https://tt.example.com/v1/logs"\n', here)).toBe(true);
    expect(codexExportsTo('[otel]\n# endpoint = "https://tt.example.com/v1/logs"\n', here)).toBe(false);
    expect(codexExportsTo('[mcp_servers.x]\nendpoint = "https://tt.example.com/mcp"\n', here)).toBe(false);
    expect(codexExportsTo('[otel]\nexporter = "none"\n[profiles.a]\nendpoint = "https://tt.example.com"\n', here)).toBe(
      false,
    );
  });
});
