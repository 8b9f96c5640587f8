/** @fileoverview The empty state: exactly what a new user runs next, with this server's address filled in. */
import { CodeBlock } from '../components/common.js';
import { Link } from '../router.js';

export function installCommands(code?: string): string {
  const server = location.origin;
  return [
    `npm install -g ${server}/cli/tokentally.tgz`,
    `tokentally link --server ${server}${code ? ` --code ${code}` : ''}`,
    'tokentally hooks install',
    'tokentally sync',
  ].join('\n');
}

export function GetStarted() {
  return (
    <section className="card onboarding" aria-labelledby="start-title">
      <h2 id="start-title">Link your first machine</h2>
      <p>
        Run this on the computer where your coding agents run. <code>link</code> opens this page to approve the machine;{' '}
        <code>hooks install</code> makes every agent session end with a sync, so you never sync by hand;{' '}
        <code>sync</code> uploads your history now.
      </p>
      <CodeBlock code={installCommands()} label="Commands to install the command-line client and link this machine" />
      <p className="muted small">
        No browser on that machine (SSH, CI)? Create a one-time code on the <Link href="/devices">Devices</Link> page
        and add <code>--code</code> to the link command.
      </p>
    </section>
  );
}
