/** @fileoverview This CLI's version: its package's (the repository's, or the installed package built from it). */
import { packageInfo } from '../package-info.js';

export const VERSION = packageInfo(import.meta.url).version;
