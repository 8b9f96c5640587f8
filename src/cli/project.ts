/**
 * @fileoverview Project attribution: the `owner/repo` of a session's working directory, read
 * from the git remote in `.git/config` (no git process). Only the repository name and a
 * credential-free https URL of it are ever produced; a local path never is.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface ProjectRef {
  /** e.g. `octo/widgets` */
  key: string;
  /**
   * e.g. `https://github.com/octo/widgets`: only for well-known public hosts, where the URL says
   * nothing the name does not; a self-hosted git server's name never leaves the machine.
   */
  ref?: string;
}

const PUBLIC_HOSTS = new Set(['github.com', 'gitlab.com', 'bitbucket.org', 'codeberg.org']);

/** `owner/repo` and an https URL from a git remote URL; `undefined` for local or odd remotes. */
export function projectFromRemote(url: string): ProjectRef | undefined {
  const u = url.trim();
  let host: string | undefined;
  let repoPath: string | undefined;
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/)(.+)$/.exec(u);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(u)) {
    try {
      const parsed = new URL(u);
      if (parsed.protocol === 'file:') return undefined;
      host = parsed.hostname;
      repoPath = parsed.pathname;
    } catch {
      return undefined;
    }
  } else if (scp !== null) {
    host = scp[1];
    repoPath = scp[2];
  }
  if (host === undefined || repoPath === undefined || host === '') return undefined;
  const parts = repoPath
    .replace(/\.git\/?$/, '')
    .replace(/\/+$/, '')
    .split('/')
    .filter((p) => p !== '');
  if (parts.length < 2) return undefined;
  const key = parts.slice(-2).join('/');
  if (key.length > 200) return undefined;
  const lower = host.toLowerCase();
  return PUBLIC_HOSTS.has(lower) ? { key, ref: `https://${lower}/${parts.join('/')}`.slice(0, 500) } : { key };
}

function gitConfigPath(dir: string): string | undefined {
  const dotGit = path.join(dir, '.git');
  let st: fs.Stats;
  try {
    st = fs.statSync(dotGit);
  } catch {
    return undefined;
  }
  if (st.isDirectory()) return path.join(dotGit, 'config');
  try {
    // worktree or submodule: ".git" is a file "gitdir: <path>"
    const m = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'));
    if (m?.[1] === undefined) return undefined;
    let gitDir = path.resolve(dir, m[1].trim());
    const common = path.join(gitDir, 'commondir');
    if (fs.existsSync(common)) gitDir = path.resolve(gitDir, fs.readFileSync(common, 'utf8').trim());
    return path.join(gitDir, 'config');
  } catch {
    return undefined;
  }
}

/** The remote URL in a git config: `origin` first, else the first remote. */
export function remoteUrlFromConfig(text: string): string | undefined {
  let section = '';
  const urls = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const sec = /^\[\s*remote\s+"([^"]+)"\s*\]$/.exec(line);
    if (sec !== null) {
      section = sec[1] ?? '';
      continue;
    }
    if (line.startsWith('[')) {
      section = '';
      continue;
    }
    const kv = /^url\s*=\s*(.+)$/.exec(line);
    if (section !== '' && kv?.[1] !== undefined && !urls.has(section)) urls.set(section, kv[1].trim());
  }
  return urls.get('origin') ?? urls.values().next().value;
}

/** Resolves working directories to projects, caching per directory for one run. */
export class ProjectResolver {
  private cache = new Map<string, ProjectRef | undefined>();

  resolve(cwd: string | undefined): ProjectRef | undefined {
    if (cwd === undefined || cwd === '' || !path.isAbsolute(cwd)) return undefined;
    if (this.cache.has(cwd)) return this.cache.get(cwd);
    let found: ProjectRef | undefined;
    let dir = cwd;
    for (let i = 0; i < 64; i += 1) {
      const cfg = gitConfigPath(dir);
      if (cfg !== undefined) {
        try {
          const url = remoteUrlFromConfig(fs.readFileSync(cfg, 'utf8'));
          found = url !== undefined ? projectFromRemote(url) : undefined;
        } catch {
          found = undefined;
        }
        break;
      }
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
    this.cache.set(cwd, found);
    return found;
  }
}
