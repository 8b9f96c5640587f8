/**
 * @fileoverview A real SMTP server in the test process (smtp-server, plain SMTP on 127.0.0.1, port
 * 0) that requires a login: SMTP_URL points at it with those credentials. It keeps what arrives;
 * `text(i)` decodes a message's quoted-printable enough to read its plain-text part and link.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received {
  from: string;
  to: string[];
  raw: string;
}

export interface TestSmtp {
  /** `smtp://user:pass@127.0.0.1:PORT` (this server's login). */
  url: string;
  received: Received[];
  /** Logins refused (a wrong user name or password). */
  refusedLogins: number;
  close(): Promise<void>;
}

export const SMTP_USER = 'mailer';
export const SMTP_PASS = 's3cret-smtp-pass';

export async function startSmtp(): Promise<TestSmtp> {
  const received: Received[] = [];
  const state = { refusedLogins: 0 };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: false,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASS) return callback(null, { user: auth.username });
      state.refusedLogins += 1;
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${SMTP_USER}:${SMTP_PASS}@127.0.0.1:${port}`,
    received,
    get refusedLogins() {
      return state.refusedLogins;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The message with quoted-printable soft breaks and escapes undone (enough for ASCII text). */
export function decoded(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The recovery link in a message's plain-text part. */
export function linkIn(raw: string): string {
  const match = /https?:\/\/\S+\/auth\/v1\/verify\?[^\s"<&]+(?:&[^\s"<&]+)*/.exec(decoded(raw));
  if (!match) throw new Error(`no recovery link in the message:\n${raw}`);
  return match[0];
}
