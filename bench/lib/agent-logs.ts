/**
 * @fileoverview The agent-log tree bench:cli syncs: deterministic generators (a fixed-seed
 * LCG, so every run writes the same bytes) that write one agent's file or store of about the
 * asked size, with that agent's mix of line types, and the one-turn appender for the hook case.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

const DAY = 86_400_000;
const START = Date.UTC(2026, 7, 1);

// ---------- deterministic filler ----------
let seed = 42;
export function rand(): number {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
}
const int = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
const FILLER = (() => {
  const words = ['const', 'return', 'function', 'import', 'the', 'file', 'error', 'test', 'value', 'string', 'await', 'export', 'type', 'interface', '=>', '{', '}', '\\n', 'src/lib/util.ts', 'npm', 'run'];
  const parts: string[] = [];
  let n = 0;
  while (n < 2_000_000) {
    const w = words[int(0, words.length - 1)] as string;
    parts.push(w);
    n += w.length + 1;
  }
  return parts.join(' ');
})();
const text = (len: number): string => {
  const at = int(0, FILLER.length - len - 1);
  return FILLER.slice(at, at + len);
};
const uuid = (): string => {
  const h = (n: number): string => Array.from({ length: n }, () => '0123456789abcdef'[int(0, 15)]).join('');
  return `${h(8)}-${h(4)}-7${h(3)}-8${h(3)}-${h(12)}`;
};

class Writer {
  private parts: string[] = [];
  size = 0;
  push(obj: unknown): void {
    const s = `${JSON.stringify(obj)}\n`;
    this.parts.push(s);
    this.size += s.length;
  }
  save(file: string): number {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const data = this.parts.join('');
    fs.writeFileSync(file, data);
    return Buffer.byteLength(data);
  }
}

// ---------- generators (one file each, about `bytes` long) ----------
export function codexFile(root: string, i: number, bytes: number): number {
  let t = START + int(0, 89) * DAY + int(0, 20) * 3_600_000;
  const id = uuid();
  const d = new Date(t);
  const dir = path.join(root, 'codex', i % 10 === 0 ? 'archived_sessions' : path.join('sessions', String(d.getUTCFullYear()), String(d.getUTCMonth() + 1).padStart(2, '0'), String(d.getUTCDate()).padStart(2, '0')));
  const w = new Writer();
  const iso = (): string => new Date(t).toISOString();
  w.push({ timestamp: iso(), type: 'session_meta', payload: { id, timestamp: iso(), cwd: `/home/dev/project-${i % 37}`, originator: 'codex_cli_rs', cli_version: '0.58.0', instructions: text(6000), model_provider: 'openai' } });
  const total = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };
  while (w.size < bytes) {
    t += int(20, 400) * 1000;
    w.push({ timestamp: iso(), type: 'turn_context', payload: { cwd: `/home/dev/project-${i % 37}`, approval_policy: 'on-request', sandbox_policy: { mode: 'workspace-write' }, model: i % 3 === 0 ? 'gpt-5-codex' : 'gpt-5', effort: 'medium', summary: 'auto' } });
    w.push({ timestamp: iso(), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: text(int(100, 1500)) }] } });
    w.push({ timestamp: iso(), type: 'event_msg', payload: { type: 'user_message', message: text(int(100, 800)), images: [] } });
    for (let k = int(1, 6); k > 0; k -= 1) {
      w.push({ timestamp: iso(), type: 'response_item', payload: { type: 'reasoning', summary: [{ type: 'summary_text', text: text(300) }], encrypted_content: text(int(800, 3000)) } });
      w.push({ timestamp: iso(), type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', text(80)] }), call_id: `call_${k}` } });
      w.push({ timestamp: iso(), type: 'response_item', payload: { type: 'function_call_output', call_id: `call_${k}`, output: text(int(500, 8000)) } });
      const last = { input_tokens: int(5000, 60000), cached_input_tokens: 0, output_tokens: int(50, 3000), reasoning_output_tokens: 0, total_tokens: 0 };
      last.cached_input_tokens = Math.floor(last.input_tokens * 0.8);
      last.reasoning_output_tokens = Math.floor(last.output_tokens * 0.4);
      last.total_tokens = last.input_tokens + last.output_tokens;
      for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += last[key];
      const ev = { timestamp: iso(), type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { ...total }, last_token_usage: last, model_context_window: 272000 }, rate_limits: { primary: { used_percent: 12.0, window_minutes: 300 } } } };
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
  const file = sub ? path.join(dir, session, 'subagents', `agent-${session.slice(0, 8)}.jsonl`) : path.join(dir, `${session}.jsonl`);
  const w = new Writer();
  const iso = (): string => new Date(t).toISOString();
  const base = { cwd: `/home/dev/project-${i % 41}`, sessionId: session, version: '2.0.42', gitBranch: 'main', userType: 'external', isSidechain: sub };
  let n = 0;
  while (w.size < bytes) {
    t += int(10, 300) * 1000;
    w.push({ ...base, parentUuid: null, type: 'user', uuid: uuid(), timestamp: iso(), message: { role: 'user', content: text(int(50, 1500)) } });
    for (let k = int(1, 5); k > 0; k -= 1) {
      n += 1;
      const msgId = `msg_${session.slice(0, 8)}${n}`;
      const req = `req_${session.slice(9, 13)}${n}`;
      const usage = { input_tokens: int(1, 50), cache_creation_input_tokens: int(0, 5000), cache_read_input_tokens: int(10000, 120000), cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }, output_tokens: int(10, 4000), service_tier: 'standard' };
      const blocks = [{ type: 'thinking', thinking: text(int(100, 1500)), signature: text(200) }, { type: 'text', text: text(int(50, 800)) }, { type: 'tool_use', id: `toolu_${n}`, name: 'Bash', input: { command: text(100) } }];
      for (const [bi, block] of blocks.entries()) {
        // one line per content block, same message id + request id (streaming)
        w.push({ ...base, parentUuid: null, type: 'assistant', uuid: uuid(), timestamp: iso(), requestId: req, message: { id: msgId, type: 'message', role: 'assistant', model: i % 4 === 0 ? 'claude-opus-4-1-20250805' : 'claude-sonnet-4-5-20250929', content: [block], stop_reason: bi === 2 ? 'tool_use' : null, usage: bi === 2 ? usage : { ...usage, output_tokens: 1 } } });
      }
      w.push({ ...base, parentUuid: null, type: 'user', uuid: uuid(), timestamp: iso(), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${n}`, content: text(int(300, 9000)) }] }, toolUseResult: { stdout: text(int(100, 3000)), stderr: '', interrupted: false } });
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
    return { id: uuid(), timestamp: iso(), type: 'gemini', content: text(int(300, 4000)), thoughts: [{ subject: 's', description: text(300), timestamp: iso() }], toolCalls: [{ id: 't', name: 'read_file', args: { path: 'x' }, result: [{ functionResponse: { response: { output: text(int(200, 4000)) } } }], status: 'success', timestamp: iso() }], tokens: { input: int(5000, 80000), output: int(10, 2000), cached: int(0, 4000), thoughts: int(0, 800), tool: 0, total: 0 }, model: 'gemini-2.5-pro' };
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
    const data = JSON.stringify({ sessionId: uuid(), projectHash: `hash${i % 13}`, startTime: iso(), lastUpdated: iso(), messages }, null, 2);
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
    w.push({ uuid: uuid(), parentUuid: null, sessionId: session, timestamp: iso, type: 'user', cwd: '/home/dev/q', message: { role: 'user', parts: [{ text: text(int(50, 1000)) }] } });
    w.push({ uuid: uuid(), parentUuid: null, sessionId: session, timestamp: iso, type: 'assistant', cwd: '/home/dev/q', model: 'qwen3-coder-plus', message: { role: 'model', parts: [{ text: text(int(200, 3000)) }] }, usageMetadata: { promptTokenCount: int(3000, 50000), candidatesTokenCount: int(10, 1500), thoughtsTokenCount: 0, cachedContentTokenCount: int(0, 2000), totalTokenCount: 0 } });
    w.push({ uuid: uuid(), parentUuid: null, sessionId: session, timestamp: iso, type: 'tool_result', cwd: '/home/dev/q', message: { role: 'user', parts: [{ functionResponse: { response: { output: text(int(200, 5000)) } } }] } });
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
    w.push({ timestamp: t, message: { type: 'ToolResult', payload: { tool_call_id: `t${n}`, return_value: { output: text(int(200, 5000)) } } } });
    w.push({ timestamp: t, message: { type: 'StatusUpdate', payload: { context_usage: 0.07, token_usage: { input_other: int(100, 3000), output: int(10, 1500), input_cache_read: int(1000, 60000), input_cache_creation: 0 }, message_id: `chatcmpl-${i}-${n}` } } });
  }
  return w.save(path.join(root, 'kimi', 'sessions', `wd${i % 5}`, `s${i}`, 'wire.jsonl'));
}

export function opencodeDb(root: string, messages: number): number {
  const dir = path.join(root, 'opencode');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'opencode.db');
  const db = new Database(file);
  db.exec('CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL)');
  const ins = db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let k = 0; k < messages; k += 1) {
      const t = START + int(0, 89) * DAY + int(0, 86_000) * 1000;
      const role = k % 2 === 0 ? 'user' : 'assistant';
      const data = { role, sessionID: `ses_${k % 50}`, modelID: 'claude-sonnet-4-5', providerID: 'anthropic', time: { created: t, completed: t + 3000 }, path: { cwd: '/home/dev/oc', root: '/home/dev/oc' }, cost: 0, tokens: { input: int(1, 100), output: int(10, 2000), reasoning: 0, cache: { read: int(1000, 50000), write: int(0, 3000) } } };
      ins.run(`msg_${k}`, `ses_${k % 50}`, t, t, JSON.stringify(data));
    }
  })();
  db.close();
  return fs.statSync(file).size;
}

export function piFile(root: string, i: number, bytes: number, openclaw = false): number {
  let t = START + int(0, 89) * DAY;
  const w = new Writer();
  w.push({ type: 'session', id: uuid(), timestamp: new Date(t).toISOString(), cwd: '/home/dev/pi' });
  let n = 0;
  while (w.size < bytes) {
    t += int(5, 200) * 1000;
    n += 1;
    w.push({ type: 'message', id: `u${n}`, timestamp: new Date(t).toISOString(), message: { role: 'user', content: text(int(50, 1000)), timestamp: t } });
    w.push({ type: 'message', id: `a${n}`, timestamp: new Date(t).toISOString(), message: { role: 'assistant', content: [{ type: 'text', text: text(int(200, 3000)) }], provider: 'anthropic', model: 'claude-opus-4-5', usage: { input: int(1, 50), output: int(10, 1500), cacheRead: int(1000, 60000), cacheWrite: int(0, 3000), totalTokens: 0 }, timestamp: t } });
    w.push({ type: 'message', id: `t${n}`, timestamp: new Date(t).toISOString(), message: { role: 'toolResult', content: [{ type: 'text', text: text(int(200, 5000)) }], timestamp: t } });
  }
  return w.save(openclaw ? path.join(root, 'openclaw', 'agents', `a${i % 3}`, 'sessions', `s${i}.jsonl`) : path.join(root, 'pi', 'sessions', `--home-dev-p${i % 5}--`, `s${i}.jsonl`));
}

export function ampFile(root: string, i: number, bytes: number): number {
  let t = START + int(0, 89) * DAY;
  const messages: object[] = [];
  const events: object[] = [];
  let size = 0;
  for (let n = 0; size < bytes; n += 2) {
    t += int(5, 200) * 1000;
    const user = { messageId: n, role: 'user', content: [{ type: 'text', text: text(int(50, 1000)) }] };
    const asst = { messageId: n + 1, role: 'assistant', content: [{ type: 'text', text: text(int(200, 4000)) }], usage: { model: 'claude-sonnet-4-5', inputTokens: int(1, 50), outputTokens: int(10, 1500), cacheReadInputTokens: int(1000, 60000), cacheCreationInputTokens: int(0, 3000) } };
    messages.push(user, asst);
    events.push({ id: `ev${n}`, timestamp: new Date(t).toISOString(), model: 'claude-sonnet-4-5', tokens: { input: int(1, 50), output: int(10, 1500) }, operationType: 'inference', fromMessageId: n, toMessageId: n + 1 });
    size += JSON.stringify(user).length + JSON.stringify(asst).length + 200;
  }
  const file = path.join(root, 'amp', 'threads', `T-${i}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const data = JSON.stringify({ v: 1, id: `T-${i}`, created: t, messages, usageLedger: { events } });
  fs.writeFileSync(file, data);
  return data.length;
}

export function droidFile(root: string, i: number, bytes: number): number {
  const dir = path.join(root, 'factory', 'sessions', `-home-dev-d${i % 4}`);
  const w = new Writer();
  while (w.size < bytes) w.push({ type: 'message', id: uuid(), timestamp: new Date(START).toISOString(), message: { role: 'assistant', content: [{ type: 'text', text: text(int(200, 4000)) }] } });
  const settings = path.join(dir, `s${i}.settings.json`);
  const size = w.save(path.join(dir, `s${i}.jsonl`));
  fs.writeFileSync(settings, JSON.stringify({ model: 'custom:Claude-Opus-4.5-[Anthropic]-0', tokenUsage: { inputTokens: int(100, 9000), outputTokens: int(1000, 90000), cacheCreationTokens: int(0, 30000), cacheReadTokens: int(10000, 900000), thinkingTokens: 0 } }));
  const at = (START + int(0, 89) * DAY) / 1000;
  fs.utimesSync(settings, at, at);
  return size + fs.statSync(settings).size;
}

export function vscodeTask(root: string, i: number, bytes: number): number {
  const ext = ['saoudrizwan.claude-dev', 'rooveterinaryinc.roo-cline', 'kilocode.kilo-code'][i % 3] as string;
  let t = START + int(0, 89) * DAY;
  const entries: object[] = [];
  let size = 0;
  while (size < bytes) {
    t += int(5, 200) * 1000;
    const say = { ts: t, type: 'say', say: 'text', text: text(int(200, 4000)) };
    const req = { ts: t + 1, type: 'say', say: 'api_req_started', text: JSON.stringify({ request: text(int(200, 2000)), tokensIn: int(1, 50), tokensOut: int(10, 1500), cacheWrites: int(0, 3000), cacheReads: int(1000, 60000), cost: 0.01 }) };
    entries.push(say, req);
    size += JSON.stringify(say).length + JSON.stringify(req).length;
  }
  const file = path.join(root, 'vscode', ext, 'tasks', String(i), 'ui_messages.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const data = JSON.stringify(entries);
  fs.writeFileSync(file, data);
  return data.length;
}

export function copilotFile(root: string, i: number, bytes: number): number {
  let t = START + int(0, 89) * DAY;
  const w = new Writer();
  w.push({ type: 'session.model_change', data: { newModel: 'gpt-5' }, id: uuid(), timestamp: new Date(t).toISOString(), parentId: null });
  let n = 0;
  while (w.size < bytes) {
    t += int(5, 200) * 1000;
    n += 1;
    w.push({ type: 'user.message', data: { content: text(int(50, 1000)) }, id: uuid(), timestamp: new Date(t).toISOString(), parentId: null });
    w.push({ type: 'tool.execution_complete', data: { result: { content: text(int(200, 5000)) } }, id: uuid(), timestamp: new Date(t).toISOString(), parentId: null });
    w.push({ type: 'assistant.message', data: { messageId: `m${i}-${n}`, content: text(int(200, 3000)), usage: { prompt_tokens: int(3000, 60000), completion_tokens: int(10, 1500), cached_tokens: int(0, 2000) } }, id: uuid(), timestamp: new Date(t).toISOString(), parentId: null });
  }
  return w.save(path.join(root, 'copilot', 'session-state', `s${i}`, 'events.jsonl'));
}

export function gooseDb(root: string, sessions: number): number {
  const file = path.join(root, 'goose', 'sessions', 'sessions.db');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.exec('CREATE TABLE sessions (id TEXT PRIMARY KEY, working_dir TEXT, updated_at TIMESTAMP, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER, model_config_json TEXT)');
  const ins = db.prepare('INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let k = 0; k < sessions; k += 1) {
      const at = new Date(START + int(0, 89) * DAY + int(0, 86_000) * 1000).toISOString().replace('T', ' ').slice(0, 19);
      ins.run(`s${k}`, '/home/dev/g', at, int(1000, 900000), int(100, 90000), JSON.stringify({ model_name: 'gpt-5' }));
    }
  })();
  db.close();
  return fs.statSync(file).size;
}

/** Append one realistic new turn to the first Claude transcript and the first live Codex rollout. */
export function appendTurns(root: string): void {
  const first = (dir: string, pred: (name: string) => boolean): string | undefined => {
    for (const f of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) if (f.isFile() && pred(f.name)) return path.join(f.parentPath, f.name);
    return undefined;
  };
  const claude = first(path.join(root, 'claude', 'projects'), (n) => n.endsWith('.jsonl'));
  const codex = first(path.join(root, 'codex', 'sessions'), (n) => n.startsWith('rollout-'));
  const now = new Date(START + 95 * DAY).toISOString();
  if (claude !== undefined) {
    fs.appendFileSync(claude, `${JSON.stringify({ type: 'assistant', timestamp: now, requestId: 'req_bench_new', message: { id: 'msg_bench_new', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: text(800) }], usage: { input_tokens: 5, cache_read_input_tokens: 40000, cache_creation_input_tokens: 900, output_tokens: 700 } } })}\n`);
  }
  if (codex !== undefined) {
    const last = { input_tokens: 30000, cached_input_tokens: 25000, output_tokens: 900, reasoning_output_tokens: 300, total_tokens: 30900 };
    fs.appendFileSync(codex, `${JSON.stringify({ timestamp: now, type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { ...last, total_tokens: 99_999_999 }, last_token_usage: last } } })}\n`);
  }
}

// ---------- harness ----------
