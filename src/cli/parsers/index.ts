/**
 * @fileoverview The list of agent parsers a sync runs, in a fixed order.
 */
import { claudeParser } from './claude.js';
import { createCodexParser } from './codex.js';
import { geminiParser } from './gemini.js';
import { kimiParser } from './kimi.js';
import { opencodeParser } from './opencode.js';
import { qwenParser } from './qwen.js';
import { ampParser } from './amp.js';
import { copilotParser } from './copilot.js';
import { droidParser } from './droid.js';
import { crushParser, gooseParser } from './goose.js';
import { openclawParser, piParser } from './pi.js';
import type { AgentParser } from './types.js';
import { clineParser, kiloCodeParser, rooCodeParser } from './vscode-agents.js';

export const allParsers: readonly AgentParser[] = [
  createCodexParser('codex'),
  createCodexParser('every-code'),
  claudeParser,
  geminiParser,
  opencodeParser,
  qwenParser,
  kimiParser,
  ampParser,
  droidParser,
  piParser,
  openclawParser,
  clineParser,
  rooCodeParser,
  kiloCodeParser,
  copilotParser,
  gooseParser,
  crushParser,
];
