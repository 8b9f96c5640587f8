/** @fileoverview The user guide (/guide): what a user does, page by page; the sign-in page's "Docs" link leads here. */
import { CodeBlock } from '../components/common.js';
import { Link } from '../router.js';

export function Guide() {
  const server = location.origin;
  return (
    <article className="page narrow guide">
      <h1>User guide</h1>
      <p className="muted">
        Tokentally counts the tokens your coding agents (Claude Code, Codex, Gemini CLI, OpenCode and more) use, on
        every machine you link, and shows them here.
      </p>
      <h2>1. Link a machine</h2>
      <p>On the computer where your agents run:</p>
      <CodeBlock
        code={[
          `npm install -g ${server}/cli/tokentally.tgz`,
          `tokentally link --server ${server}`,
          'tokentally hooks install',
          'tokentally sync',
        ].join('\n')}
        label="Commands to link a machine and sync automatically"
      />
      <p>
        <code>link</code> opens this site to approve the machine; it appears on <Link href="/devices">Devices</Link> at
        once. <code>hooks install</code> makes each agent run a sync when a session ends, so you never sync by hand
        again; <code>sync</code> uploads your history now. No browser on that machine? Create a one-time code on Devices
        and add <code>--code</code> to the link command.
      </p>
      <h2>2. Read the overview</h2>
      <ul>
        <li>
          <strong>Range</strong>: every card, chart and table follows it. &quot;All time&quot; starts at your first
          usage. Long ranges draw one bar per week or month.
        </li>
        <li>
          <strong>Tokens or cost</strong>: the toggle at the top switches the trend, the order of the models and the
          first column of the days.
        </li>
        <li>
          <strong>Cards</strong> compare with the period of the same length just before; when that period is empty they
          say &quot;new&quot; instead.
        </li>
        <li>
          <strong>Days</strong>: runs of days without usage are folded into one line; untick &quot;Hide empty days&quot;
          to list every day. A day&apos;s cost is an estimate that adds up to the exact total.
        </li>
        <li>
          <strong>Activity</strong>: click a day to see its half-hours; &quot;not yet synced&quot; marks the time since
          the last sync.
        </li>
      </ul>
      <h2>3. Devices</h2>
      <p>
        Each machine shows when it last synced and uploaded, whether it syncs by itself, and its tokens and cost. Revoke
        a lost machine: its token stops working at once, its uploads stay.
      </p>
      <h2>4. Leaderboard and sharing</h2>
      <p>
        The leaderboard ranks the users who made their totals public; you always see your own rank. Settings has the
        switch to go public, a private share link, and a badge or card for your README.
      </p>
      <h2>5. In the terminal</h2>
      <p>
        <code>tokentally status</code> says what is linked and synced; <code>tokentally report</code> prints your usage
        by day and model; <code>tokentally doctor</code> checks the setup.
      </p>
      <p className="muted small">
        For programs: the <a href="/openapi.json">OpenAPI document</a> and the{' '}
        <a href="/docs/auth">authentication guide</a>.
      </p>
    </article>
  );
}
