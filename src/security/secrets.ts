/**
 * @fileoverview The three server secrets. A secret not given in the environment is generated once
 * (crypto-random) and kept: in DATA_DIR/secrets.json (mode 0600) on SQLite, in the database on
 * PostgreSQL so every process shares it. Never logged.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import type { Db } from '../db/connect.js';
import { keepSecrets } from '../db/queries/secrets.js';

export interface Secrets {
  readonly serviceRoleKey: string;
  readonly jwtSecret: string;
  readonly anonKey: string;
}

type SecretName = keyof Secrets;

const GENERATORS: Record<SecretName, () => string> = {
  serviceRoleKey: () => 'tt_service_' + randomBytes(32).toString('base64url'),
  jwtSecret: () => randomBytes(48).toString('base64url'),
  anonKey: () => 'tt_anon_' + randomBytes(24).toString('base64url'),
};

const NAMES: SecretName[] = ['serviceRoleKey', 'jwtSecret', 'anonKey'];

/** Resolves every secret: configured value, else the kept one, else a new one that is then kept. */
export async function resolveSecrets(config: Config, db: Db, now: number): Promise<Secrets> {
  const missing = NAMES.filter((name) => config.secrets[name] === undefined);
  const kept =
    missing.length === 0
      ? {}
      : db.dialect === 'postgres'
        ? await keepSecrets(db, missing, (name) => GENERATORS[name](), now)
        : keepInFile(config.dataDir, missing);
  const pick = (name: SecretName): string => {
    const value = config.secrets[name] ?? kept[name];
    if (value === undefined) throw new Error(`secret ${name} could not be resolved`);
    return value;
  };
  return Object.freeze({
    serviceRoleKey: pick('serviceRoleKey'),
    jwtSecret: pick('jwtSecret'),
    anonKey: pick('anonKey'),
  });
}

function keepInFile(dataDir: string, names: SecretName[]): Partial<Secrets> {
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<Record<SecretName, string>> = {};
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Record<SecretName, string>>;
  let changed = false;
  for (const name of names) {
    if (typeof stored[name] !== 'string') {
      stored[name] = GENERATORS[name]();
      changed = true;
    }
  }
  if (changed) {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(stored, null, 2) + '\n', { mode: 0o600 });
    fs.renameSync(temp, file);
  }
  fs.chmodSync(file, 0o600);
  return stored;
}
