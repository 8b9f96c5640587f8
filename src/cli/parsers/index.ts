/**
 * @fileoverview The list of agent parsers a sync runs, in a fixed order.
 */
import { claudeParser } from './claude.js';
import { createCodexParser } from './codex.js';
import { geminiParser } from './gemini.js';
import { kimiParser } from './kimi.js';
import { opencodeParser } from './opencode.js';
import { qwenParser } from './qwen.js';
import type { AgentParser } from './types.js';

export const allParsers: readonly AgentParser[] = [
  createCodexParser('codex'),
  createCodexParser('every-code'),
  claudeParser,
  geminiParser,
  opencodeParser,
  qwenParser,
  kimiParser,
];
