/**
 * @fileoverview The exact settings that point each agent's own OpenTelemetry export at this server
 * (docs/otlp.md), for the "No install (agent telemetry)" way of linking a machine. Pure.
 */

export interface AgentSettings {
  agent: string;
  /** Where the text goes. */
  where: string;
  code: string;
  /** A second part, for the shell profile (Gemini CLI and Qwen Code take their header from the environment). */
  shell?: string;
}

/** Settings per agent for a server origin and a device token. */
export function otlpSettings(origin: string, token: string): AgentSettings[] {
  const header = `Authorization=Bearer ${token}`;
  const claudeEnv = {
    CLAUDE_CODE_ENABLE_TELEMETRY: '1',
    OTEL_LOGS_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_EXPORTER_OTLP_ENDPOINT: origin,
    OTEL_EXPORTER_OTLP_HEADERS: header,
    OTEL_LOG_USER_PROMPTS: '0',
  };
  const gemini = {
    telemetry: { enabled: true, target: 'local', otlpEndpoint: origin, otlpProtocol: 'http', logPrompts: false },
  };
  return [
    {
      agent: 'Claude Code',
      where: '~/.claude/settings.json (merge the env block into what is there)',
      code: JSON.stringify({ env: claudeEnv }, null, 2),
    },
    {
      agent: 'Claude Code, for a company',
      where:
        'managed-settings.json (macOS: /Library/Application Support/ClaudeCode/, Linux: /etc/claude-code/); one token per machine through otelHeadersHelper, a script printing {"Authorization": "Bearer <that machine\'s token>"}',
      code: JSON.stringify(
        {
          env: { ...claudeEnv, OTEL_EXPORTER_OTLP_HEADERS: undefined },
          otelHeadersHelper: '/usr/local/bin/tokentally-otel-headers',
        },
        null,
        2,
      ),
    },
    {
      agent: 'Codex CLI',
      where: '~/.codex/config.toml',
      code: [
        '[otel]',
        'log_user_prompt = false',
        `exporter = { otlp-http = { endpoint = "${origin}/v1/logs", protocol = "binary", headers = { "Authorization" = "Bearer ${token}" } } }`,
      ].join('\n'),
    },
    {
      agent: 'Gemini CLI',
      where: '~/.gemini/settings.json, and the line below in the shell profile (~/.bashrc, ~/.zshrc)',
      code: JSON.stringify(gemini, null, 2),
      shell: `export OTEL_EXPORTER_OTLP_HEADERS="${header}"`,
    },
    {
      agent: 'Qwen Code',
      where: '~/.qwen/settings.json, and the line below in the shell profile (~/.bashrc, ~/.zshrc)',
      code: JSON.stringify(gemini, null, 2),
      shell: `export OTEL_EXPORTER_OTLP_HEADERS="${header}"`,
    },
    {
      agent: 'GitHub Copilot CLI',
      where: 'the shell profile (~/.bashrc, ~/.zshrc)',
      code: [
        'export COPILOT_OTEL_ENABLED=true',
        `export OTEL_EXPORTER_OTLP_ENDPOINT=${origin}`,
        'export OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf',
        `export OTEL_EXPORTER_OTLP_HEADERS="${header}"`,
      ].join('\n'),
    },
  ];
}
