/** @fileoverview Generators for the agents that log JSONL or JSON sessions (Codex, Claude Code, Gemini, Qwen, Kimi): one file of about `bytes` each. */
import fs from 'node:fs';
import path from 'node:path';
import { DAY, START, int, rand, text, uuid, Writer } from './common.js';

export function codexFile(root: string, i: number, bytes: number): number {
  let t = START + int(0, 89) * DAY + int(0, 20) * 3_600_000;
  const id = uuid();
  const d = new Date(t);
  const dir = path.join(
    root,
    'codex',
    i % 10 === 0
      ? 'archived_sessions'
      : path.join(
          'sessions',
          String(d.getUTCFullYear()),
          String(d.getUTCMonth() + 1).padStart(2, '0'),
          String(d.getUTCDate()).padStart(2, '0'),
        ),
  );
  const w = new Writer();
  const iso = (): string => new Date(t).toISOString();
  w.push({
    timestamp: iso(),
    type: 'session_meta',
    payload: {
      id,
      timestamp: iso(),
      cwd: `/home/dev/project-${i % 37}`,
      originator: 'codex_cli_rs',
      cli_version: '0.58.0',
      instructions: text(6000),
      model_provider: 'openai',
    },
  });
  const total = {
    input_tokens: 0,
    cached_input_tokens: 0,
    output_tokens: 0,
    reasoning_output_tokens: 0,
    total_tokens: 0,
  };
  while (w.size < bytes) {
    t += int(20, 400) * 1000;
    w.push({
      timestamp: iso(),
      type: 'turn_context',
      payload: {
        cwd: `/home/dev/project-${i % 37}`,
        approval_policy: 'on-request',
        sandbox_policy: { mode: 'workspace-write' },
        model: i % 3 === 0 ? 'gpt-5-codex' : 'gpt-5',
        effort: 'medium',
        summary: 'auto',
      },
    });
    w.push({
      timestamp: iso(),
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: text(int(100, 1500)) }] },
    });
    w.push({
      timestamp: iso(),
      type: 'event_msg',
      payload: { type: 'user_message', message: text(int(100, 800)), images: [] },
    });
    for (let k = int(1, 6); k > 0; k -= 1) {
      w.push({
        timestamp: iso(),
        type: 'response_item',
        payload: {
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: text(300) }],
          encrypted_content: text(int(800, 3000)),
        },
      });
      w.push({
        timestamp: iso(),
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'shell',
          arguments: JSON.stringify({ command: ['bash', '-lc', text(80)] }),
          call_id: `call_${k}`,
        },
      });
      w.push({
        timestamp: iso(),
        type: 'response_item',
        payload: { type: 'function_call_output', call_id: `call_${k}`, output: text(int(500, 8000)) },
      });
      const last = {
        input_tokens: int(5000, 60000),
        cached_input_tokens: 0,
        output_tokens: int(50, 3000),
        reasoning_output_tokens: 0,
        total_tokens: 0,
      };
      last.cached_input_tokens = Math.floor(last.input_tokens * 0.8);
      last.reasoning_output_tokens = Math.floor(last.output_tokens * 0.4);
      last.total_tokens = last.input_tokens + last.output_tokens;
      for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += last[key];
      const ev = {
        timestamp: iso(),
        type: 'event_msg',
        payload: {
          type: 'token_count',
          info: { total_token_usage: { ...total }, last_token_usage: last, model_context_window: 272000 },
          rate_limits: { primary: { used_percent: 12.0, window_minutes: 300 } },
        },
      };
      w.push(ev);
      if (rand() < 0.3) w.push(ev); // duplicate token_count
      t += int(2, 30) * 1000;
    }
    w.push({ timestamp: iso(), type: 'event_msg', payload: { type: 'agent_message', message: text(int(200, 1200)) } });
  }
  return w.save(path.join(dir, `rollout-${new Date(t).toISOString().slice(0, 19).replace(/:/g, '-')}-${id}.jsonl`));
}

export function claudeFile(root: string, i: number, bytes: number): number {
  let t = START + int(0, 89) * DAY + int(0, 20) * 3_600_000;
  const session = uuid();
  const sub = i % 6 === 5;
  const dir = path.join(root, 'claude', 'projects', `-home-dev-project-${i % 41}`);
  const file = sub
    ? path.join(dir, session, 'subagents', `agent-${session.slice(0, 8)}.jsonl`)
    : path.join(dir, `${session}.jsonl`);
  const w = new Writer();
  const iso = (): string => new Date(t).toISOString();
  const base = {
    cwd: `/home/dev/project-${i % 41}`,
    sessionId: session,
    version: '2.0.42',
    gitBranch: 'main',
    userType: 'external',
    isSidechain: sub,
  };
  let n = 0;
  while (w.size < bytes) {
    t += int(10, 300) * 1000;
    w.push({
      ...base,
      parentUuid: null,
      type: 'user',
      uuid: uuid(),
      timestamp: iso(),
      message: { role: 'user', content: text(int(50, 1500)) },
    });
    for (let k = int(1, 5); k > 0; k -= 1) {
      n += 1;
      const msgId = `msg_${session.slice(0, 8)}${n}`;
      const req = `req_${session.slice(9, 13)}${n}`;
      const input = int(1, 50);
      const created = int(0, 5000);
      // as in real logs, the parts of cache_creation add up to cache_creation_input_tokens
      // (Claude Code writes the 1-hour cache in some sessions, the 5-minute one in others)
      const oneHour = i % 3 === 0 ? created : 0;
      const usage = {
        input_tokens: input,
        cache_creation_input_tokens: created,
        cache_read_input_tokens: int(10000, 120000),
        cache_creation: { ephemeral_5m_input_tokens: created - oneHour, ephemeral_1h_input_tokens: oneHour },
        output_tokens: int(10, 4000),
        service_tier: 'standard',
      };
      const blocks = [
        { type: 'thinking', thinking: text(int(100, 1500)), signature: text(200) },
        { type: 'text', text: text(int(50, 800)) },
        { type: 'tool_use', id: `toolu_${n}`, name: 'Bash', input: { command: text(100) } },
      ];
      for (const [bi, block] of blocks.entries()) {
        // one line per content block, same message id + request id (streaming)
        w.push({
          ...base,
          parentUuid: null,
          type: 'assistant',
          uuid: uuid(),
          timestamp: iso(),
          requestId: req,
          message: {
            id: msgId,
            type: 'message',
            role: 'assistant',
            model: i % 4 === 0 ? 'claude-opus-4-1-20250805' : 'claude-sonnet-4-5-20250929',
            content: [block],
            stop_reason: bi === 2 ? 'tool_use' : null,
            usage: bi === 2 ? usage : { ...usage, output_tokens: 1 },
          },
        });
      }
      w.push({
        ...base,
        parentUuid: null,
        type: 'user',
        uuid: uuid(),
        timestamp: iso(),
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `toolu_${n}`, content: text(int(300, 9000)) }],
        },
        toolUseResult: { stdout: text(int(100, 3000)), stderr: '', interrupted: false },
      });
      t += int(2, 40) * 1000;
    }
  }
  return w.save(file);
}

export function geminiFile(root: string, i: number, bytes: number): number {
  let t = START + int(0, 89) * DAY;
  const dir = path.join(root, 'gemini-home', '.gemini', 'tmp', `hash${i % 13}`, 'chats');
  const iso = (): string => new Date(t).toISOString();
  const message = (): object => {
    t += int(5, 200) * 1000;
    return {
      id: uuid(),
      timestamp: iso(),
      type: 'gemini',
      content: text(int(300, 4000)),
      thoughts: [{ subject: 's', description: text(300), timestamp: iso() }],
      toolCalls: [
        {
          id: 't',
          name: 'read_file',
          args: { path: 'x' },
          result: [{ functionResponse: { response: { output: text(int(200, 4000)) } } }],
          status: 'success',
          timestamp: iso(),
        },
      ],
      tokens: {
        input: int(5000, 80000),
        output: int(10, 2000),
        cached: int(0, 4000),
        thoughts: int(0, 800),
        tool: 0,
        total: 0,
      },
      model: 'gemini-2.5-pro',
    };
  };
  if (i % 3 === 0) {
    const messages: object[] = [];
    let size = 0;
    while (size < bytes) {
      messages.push({ id: uuid(), timestamp: iso(), type: 'user', content: text(int(50, 800)) });
      const m = message();
      messages.push(m);
      size += JSON.stringify(m).length + 500;
    }
    const file = path.join(dir, `session-${iso().slice(0, 16).replace(/:/g, '-')}-${i}.json`);
    fs.mkdirSync(dir, { recursive: true });
    const data = JSON.stringify(
      { sessionId: uuid(), projectHash: `hash${i % 13}`, startTime: iso(), lastUpdated: iso(), messages },
      null,
      2,
    );
    fs.writeFileSync(file, data);
    return Buffer.byteLength(data);
  }
  const w = new Writer();
  w.push({ sessionId: uuid(), projectHash: `hash${i % 13}`, startTime: iso(), kind: 'main' });
  while (w.size < bytes) {
    w.push({ id: uuid(), timestamp: iso(), type: 'user', content: text(int(50, 800)) });
    w.push(message());
  }
  return w.save(path.join(dir, `session-${iso().slice(0, 16).replace(/:/g, '-')}-${i}.jsonl`));
}

export function qwenFile(root: string, i: number, bytes: number): number {
  let t = START + int(0, 89) * DAY;
  const w = new Writer();
  const session = uuid();
  while (w.size < bytes) {
    t += int(5, 200) * 1000;
    const iso = new Date(t).toISOString();
    w.push({
      uuid: uuid(),
      parentUuid: null,
      sessionId: session,
      timestamp: iso,
      type: 'user',
      cwd: '/home/dev/q',
      message: { role: 'user', parts: [{ text: text(int(50, 1000)) }] },
    });
    w.push({
      uuid: uuid(),
      parentUuid: null,
      sessionId: session,
      timestamp: iso,
      type: 'assistant',
      cwd: '/home/dev/q',
      model: 'qwen3-coder-plus',
      message: { role: 'model', parts: [{ text: text(int(200, 3000)) }] },
      usageMetadata: {
        promptTokenCount: int(3000, 50000),
        candidatesTokenCount: int(10, 1500),
        thoughtsTokenCount: 0,
        cachedContentTokenCount: int(0, 2000),
        totalTokenCount: 0,
      },
    });
    w.push({
      uuid: uuid(),
      parentUuid: null,
      sessionId: session,
      timestamp: iso,
      type: 'tool_result',
      cwd: '/home/dev/q',
      message: { role: 'user', parts: [{ functionResponse: { response: { output: text(int(200, 5000)) } } }] },
    });
  }
  return w.save(path.join(root, 'qwen', i % 2 === 0 ? 'projects' : 'tmp', `p${i % 7}`, 'chats', `${session}.jsonl`));
}

export function kimiFile(root: string, i: number, bytes: number): number {
  let t = (START + int(0, 89) * DAY) / 1000;
  const w = new Writer();
  let n = 0;
  while (w.size < bytes) {
    t += int(5, 200);
    n += 1;
    w.push({ timestamp: t, message: { type: 'TurnBegin', payload: { user_input: text(int(50, 800)) } } });
    w.push({ timestamp: t, message: { type: 'ContentPart', payload: { type: 'text', text: text(int(200, 3000)) } } });
    w.push({
      timestamp: t,
      message: {
        type: 'ToolResult',
        payload: { tool_call_id: `t${n}`, return_value: { output: text(int(200, 5000)) } },
      },
    });
    w.push({
      timestamp: t,
      message: {
        type: 'StatusUpdate',
        payload: {
          context_usage: 0.07,
          token_usage: {
            input_other: int(100, 3000),
            output: int(10, 1500),
            input_cache_read: int(1000, 60000),
            input_cache_creation: 0,
          },
          message_id: `chatcmpl-${i}-${n}`,
        },
      },
    });
  }
  return w.save(path.join(root, 'kimi', 'sessions', `wd${i % 5}`, `s${i}`, 'wire.jsonl'));
}
