/**
 * A small log tree holding every agent the CLI reads, in each tool's real layout, for end-to-end
 * tests (install from the server, sync, compare `report` with the server's summary). Usage lies
 * on 2026-11-01 (UTC), models are ones the price data knows.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { TestHome } from './helpers.js';
import { writeJson, writeJsonl } from './helpers.js';

const T = (hh: number, mm: number): string =>
  `2026-11-01T${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}:00.000Z`;
const ms = (hh: number, mm: number): number => Date.parse(T(hh, mm));

/** Writes the tree into `h`'s redirected agent directories; returns the sources it holds. */
export function writeAgentTree(h: TestHome): string[] {
  const env = h.env;
  const codexTurn = (ts: string, i: number, c: number, o: number, r: number) => ({
    timestamp: ts,
    type: 'event_msg',
    payload: {
      type: 'token_count',
      info: {
        last_token_usage: {
          input_tokens: i,
          cached_input_tokens: c,
          output_tokens: o,
          reasoning_output_tokens: r,
          total_tokens: i + o,
        },
      },
    },
  });
  for (const [home, id] of [
    [env['CODEX_HOME'] as string, 'a'],
    [env['CODE_HOME'] as string, 'b'],
  ] as const) {
    writeJsonl(
      path.join(
        home,
        'sessions',
        '2026',
        '11',
        '01',
        `rollout-2026-11-01T09-00-00-0199a000-0000-7000-8000-00000000000${id}.jsonl`,
      ),
      [
        { timestamp: T(9, 0), type: 'turn_context', payload: { model: 'gpt-5-codex' } },
        codexTurn(T(9, 1), 120_000, 80_000, 3_000, 1_000),
        codexTurn(T(9, 45), 40_000, 30_000, 900, 0),
      ],
    );
  }
  writeJsonl(path.join(env['CLAUDE_CONFIG_DIR'] as string, 'projects', '-home-dev-app', 'session-1.jsonl'), [
    { type: 'user', timestamp: T(10, 0), sessionId: 's', message: { role: 'user', content: 'secret prompt' } },
    {
      type: 'assistant',
      timestamp: T(10, 1),
      sessionId: 's',
      requestId: 'req_1',
      message: {
        id: 'msg_1',
        model: 'claude-sonnet-4-5',
        usage: {
          input_tokens: 12,
          cache_creation_input_tokens: 4_000,
          cache_read_input_tokens: 20_000,
          output_tokens: 800,
        },
      },
    },
  ]);
  writeJson(
    path.join(
      env['GEMINI_CLI_HOME'] as string,
      '.gemini',
      'tmp',
      'a1b2c3',
      'chats',
      'session-2026-11-01T11-00-aaaa.json',
    ),
    {
      sessionId: 'g',
      messages: [
        {
          id: 'g1',
          timestamp: T(11, 2),
          type: 'gemini',
          content: 'x',
          model: 'gemini-2.5-pro',
          tokens: { input: 9_000, output: 400, cached: 6_000, thoughts: 100, tool: 0, total: 9_500 },
        },
      ],
    },
  );
  writeJson(path.join(env['OPENCODE_DATA_DIR'] as string, 'storage', 'message', 'ses_1', 'msg_1.json'), {
    id: 'msg_1',
    role: 'assistant',
    modelID: 'claude-sonnet-4-5',
    path: { cwd: '/nonexistent/oc', root: '/nonexistent/oc' },
    time: { created: ms(12, 0), completed: ms(12, 1) },
    tokens: { input: 300, output: 120, reasoning: 0, cache: { read: 5_000, write: 200 } },
  });
  writeJsonl(path.join(env['QWEN_HOME'] as string, 'tmp', 'abc', 'chats', 'q1.jsonl'), [
    {
      uuid: 'u-1',
      parentUuid: null,
      sessionId: 'q',
      timestamp: T(13, 0),
      type: 'assistant',
      model: 'qwen3-coder-plus',
      message: { role: 'model', parts: [{ text: 'x' }] },
      usageMetadata: {
        promptTokenCount: 2_000,
        cachedContentTokenCount: 500,
        candidatesTokenCount: 100,
        thoughtsTokenCount: 0,
        totalTokenCount: 2_100,
      },
    },
  ]);
  writeJsonl(path.join(env['KIMI_HOME'] as string, 'sessions', 'wd1', 'sess1', 'wire.jsonl'), [
    { timestamp: ms(14, 0) / 1000, message: { type: 'TurnBegin', payload: { user_input: 'secret' } } },
    {
      timestamp: ms(14, 0) / 1000,
      message: {
        type: 'StatusUpdate',
        payload: {
          token_usage: { input_other: 1_200, output: 150, input_cache_read: 6_000, input_cache_creation: 0 },
          message_id: 'chatcmpl-1',
        },
      },
    },
  ]);
  const piLine = (id: string, hh: number, model: string) => ({
    type: 'message',
    id,
    timestamp: T(hh, 5),
    message: {
      role: 'assistant',
      provider: 'anthropic',
      model,
      usage: { input: 40, output: 600, cacheRead: 12_000, cacheWrite: 900, totalTokens: 13_540 },
      timestamp: ms(hh, 5),
    },
  });
  writeJsonl(
    path.join(
      env['PI_CODING_AGENT_DIR'] as string,
      'sessions',
      '--home-dev-app--',
      '2026-11-01T15-00-00-000Z_aaaa.jsonl',
    ),
    [{ type: 'session', id: 'aaaa' }, piLine('p1', 15, 'claude-opus-4-5')],
  );
  writeJsonl(path.join(env['OPENCLAW_STATE_DIR'] as string, 'agents', 'main', 'sessions', 'oc1.jsonl'), [
    piLine('o1', 16, 'claude-sonnet-4-5'),
  ]);
  writeJson(path.join(env['AMP_DATA_DIR'] as string, 'threads', 'T-1234.json'), {
    id: 'T-1234',
    created: ms(17, 0),
    messages: [
      {
        messageId: 1,
        role: 'assistant',
        usage: {
          model: 'claude-sonnet-4-5',
          inputTokens: 30,
          outputTokens: 700,
          cacheReadInputTokens: 15_000,
          cacheCreationInputTokens: 2_000,
        },
      },
    ],
    usageLedger: {
      events: [
        {
          id: 'ev1',
          timestamp: T(17, 1),
          model: 'claude-sonnet-4-5',
          tokens: { input: 30, output: 700 },
          toMessageId: 1,
        },
      ],
    },
  });
  const droid = path.join(env['FACTORY_HOME'] as string, 'sessions', '-home-dev-app', 'd1.settings.json');
  writeJson(droid, {
    model: 'custom:Claude-Opus-4.5-[Anthropic]-0',
    tokenUsage: {
      inputTokens: 500,
      outputTokens: 900,
      cacheCreationTokens: 3_000,
      cacheReadTokens: 40_000,
      thinkingTokens: 100,
    },
  });
  fs.utimesSync(droid, ms(18, 10) / 1000, ms(18, 10) / 1000);
  const req = (hh: number, r: object) => ({
    ts: ms(hh, 20),
    type: 'say',
    say: 'api_req_started',
    text: JSON.stringify(r),
  });
  const storage = env['VSCODE_GLOBAL_STORAGE'] as string;
  writeJson(path.join(storage, 'saoudrizwan.claude-dev', 'tasks', '1', 'task_metadata.json'), {
    model_usage: [{ ts: ms(0, 0), model_id: 'claude-sonnet-4-5' }],
  });
  writeJson(path.join(storage, 'saoudrizwan.claude-dev', 'tasks', '1', 'ui_messages.json'), [
    req(19, { tokensIn: 20, tokensOut: 400, cacheWrites: 1_000, cacheReads: 8_000 }),
  ]);
  writeJson(path.join(storage, 'rooveterinaryinc.roo-cline', 'tasks', '1', 'ui_messages.json'), [
    req(20, { tokensIn: 6_000, tokensOut: 200, cacheWrites: 0, cacheReads: 5_000, apiProtocol: 'openai' }),
  ]);
  writeJson(path.join(storage, 'kilocode.kilo-code', 'tasks', '1', 'ui_messages.json'), [
    req(21, { tokensIn: 70, tokensOut: 90, cacheWrites: 300, cacheReads: 700, apiProtocol: 'anthropic' }),
  ]);
  writeJsonl(path.join(env['COPILOT_HOME'] as string, 'session-state', 's1', 'events.jsonl'), [
    { type: 'session.model_change', data: { newModel: 'gpt-5' }, id: 'e1', timestamp: T(22, 0) },
    {
      type: 'assistant.message',
      data: { messageId: 'm1', usage: { prompt_tokens: 9_000, completion_tokens: 250, cached_tokens: 7_000 } },
      id: 'e2',
      timestamp: T(22, 1),
    },
  ]);
  return [
    'codex',
    'every-code',
    'claude',
    'gemini',
    'opencode',
    'qwen',
    'kimi',
    'pi',
    'openclaw',
    'amp',
    'droid',
    'cline',
    'roo-code',
    'kilo-code',
    'copilot',
  ];
}
