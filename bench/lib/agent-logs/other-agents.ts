/** @fileoverview Generators for OpenCode, pi/OpenClaw, Amp, Droid, VS Code extensions, Copilot CLI and Goose: one file or store each. */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DAY, START, int, text, uuid, Writer } from './common.js';

export function opencodeDb(root: string, messages: number): number {
  const dir = path.join(root, 'opencode');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'opencode.db');
  const db = new Database(file);
  db.exec(
    'CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL)',
  );
  const ins = db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let k = 0; k < messages; k += 1) {
      const t = START + int(0, 89) * DAY + int(0, 86_000) * 1000;
      const role = k % 2 === 0 ? 'user' : 'assistant';
      const data = {
        role,
        sessionID: `ses_${k % 50}`,
        modelID: 'claude-sonnet-4-5',
        providerID: 'anthropic',
        time: { created: t, completed: t + 3000 },
        path: { cwd: '/home/dev/oc', root: '/home/dev/oc' },
        cost: 0,
        tokens: {
          input: int(1, 100),
          output: int(10, 2000),
          reasoning: 0,
          cache: { read: int(1000, 50000), write: int(0, 3000) },
        },
      };
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
    w.push({
      type: 'message',
      id: `u${n}`,
      timestamp: new Date(t).toISOString(),
      message: { role: 'user', content: text(int(50, 1000)), timestamp: t },
    });
    w.push({
      type: 'message',
      id: `a${n}`,
      timestamp: new Date(t).toISOString(),
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: text(int(200, 3000)) }],
        provider: 'anthropic',
        model: 'claude-opus-4-5',
        usage: {
          input: int(1, 50),
          output: int(10, 1500),
          cacheRead: int(1000, 60000),
          cacheWrite: int(0, 3000),
          totalTokens: 0,
        },
        timestamp: t,
      },
    });
    w.push({
      type: 'message',
      id: `t${n}`,
      timestamp: new Date(t).toISOString(),
      message: { role: 'toolResult', content: [{ type: 'text', text: text(int(200, 5000)) }], timestamp: t },
    });
  }
  return w.save(
    openclaw
      ? path.join(root, 'openclaw', 'agents', `a${i % 3}`, 'sessions', `s${i}.jsonl`)
      : path.join(root, 'pi', 'sessions', `--home-dev-p${i % 5}--`, `s${i}.jsonl`),
  );
}

export function ampFile(root: string, i: number, bytes: number): number {
  let t = START + int(0, 89) * DAY;
  const messages: object[] = [];
  const events: object[] = [];
  let size = 0;
  for (let n = 0; size < bytes; n += 2) {
    t += int(5, 200) * 1000;
    const user = { messageId: n, role: 'user', content: [{ type: 'text', text: text(int(50, 1000)) }] };
    const asst = {
      messageId: n + 1,
      role: 'assistant',
      content: [{ type: 'text', text: text(int(200, 4000)) }],
      usage: {
        model: 'claude-sonnet-4-5',
        inputTokens: int(1, 50),
        outputTokens: int(10, 1500),
        cacheReadInputTokens: int(1000, 60000),
        cacheCreationInputTokens: int(0, 3000),
      },
    };
    messages.push(user, asst);
    events.push({
      id: `ev${n}`,
      timestamp: new Date(t).toISOString(),
      model: 'claude-sonnet-4-5',
      tokens: { input: int(1, 50), output: int(10, 1500) },
      operationType: 'inference',
      fromMessageId: n,
      toMessageId: n + 1,
    });
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
  while (w.size < bytes)
    w.push({
      type: 'message',
      id: uuid(),
      timestamp: new Date(START).toISOString(),
      message: { role: 'assistant', content: [{ type: 'text', text: text(int(200, 4000)) }] },
    });
  const settings = path.join(dir, `s${i}.settings.json`);
  const size = w.save(path.join(dir, `s${i}.jsonl`));
  fs.writeFileSync(
    settings,
    JSON.stringify({
      model: 'custom:Claude-Opus-4.5-[Anthropic]-0',
      tokenUsage: {
        inputTokens: int(100, 9000),
        outputTokens: int(1000, 90000),
        cacheCreationTokens: int(0, 30000),
        cacheReadTokens: int(10000, 900000),
        thinkingTokens: 0,
      },
    }),
  );
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
    const req = {
      ts: t + 1,
      type: 'say',
      say: 'api_req_started',
      text: JSON.stringify({
        request: text(int(200, 2000)),
        tokensIn: int(1, 50),
        tokensOut: int(10, 1500),
        cacheWrites: int(0, 3000),
        cacheReads: int(1000, 60000),
        cost: 0.01,
      }),
    };
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
  w.push({
    type: 'session.model_change',
    data: { newModel: 'gpt-5' },
    id: uuid(),
    timestamp: new Date(t).toISOString(),
    parentId: null,
  });
  let n = 0;
  while (w.size < bytes) {
    t += int(5, 200) * 1000;
    n += 1;
    w.push({
      type: 'user.message',
      data: { content: text(int(50, 1000)) },
      id: uuid(),
      timestamp: new Date(t).toISOString(),
      parentId: null,
    });
    w.push({
      type: 'tool.execution_complete',
      data: { result: { content: text(int(200, 5000)) } },
      id: uuid(),
      timestamp: new Date(t).toISOString(),
      parentId: null,
    });
    w.push({
      type: 'assistant.message',
      data: {
        messageId: `m${i}-${n}`,
        content: text(int(200, 3000)),
        usage: { prompt_tokens: int(3000, 60000), completion_tokens: int(10, 1500), cached_tokens: int(0, 2000) },
      },
      id: uuid(),
      timestamp: new Date(t).toISOString(),
      parentId: null,
    });
  }
  return w.save(path.join(root, 'copilot', 'session-state', `s${i}`, 'events.jsonl'));
}

export function gooseDb(root: string, sessions: number): number {
  const file = path.join(root, 'goose', 'sessions', 'sessions.db');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.exec(
    'CREATE TABLE sessions (id TEXT PRIMARY KEY, working_dir TEXT, updated_at TIMESTAMP, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER, model_config_json TEXT)',
  );
  const ins = db.prepare('INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let k = 0; k < sessions; k += 1) {
      const at = new Date(START + int(0, 89) * DAY + int(0, 86_000) * 1000)
        .toISOString()
        .replace('T', ' ')
        .slice(0, 19);
      ins.run(`s${k}`, '/home/dev/g', at, int(1000, 900000), int(100, 90000), JSON.stringify({ model_name: 'gpt-5' }));
    }
  })();
  db.close();
  return fs.statSync(file).size;
}
