/**
 * @fileoverview "No install (agent telemetry)": creates a device token for the agents' own
 * OpenTelemetry export and shows, per agent, the settings that send it here (docs/otlp.md).
 */
import { useState } from 'react';
import { call, type Answer } from '../api.js';
import { Card, CodeBlock, ErrorNote } from '../components/common.js';
import { otlpSettings } from '../lib/otlp-settings.js';

export function TelemetrySetupPanel({ onCreated }: { onCreated: () => void }) {
  const [token, setToken] = useState<string>();
  const [name, setName] = useState('Agent telemetry');
  const [error, setError] = useState<string>();
  const create = async () => {
    setError(undefined);
    try {
      const issued = await call<Answer<'svc-device-token-issue', 'post'>>('svc-device-token-issue', {
        method: 'POST',
        body: { device_name: name, platform: 'otlp' },
      });
      setToken(issued.token);
      onCreated();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <Card id="link-telemetry" title="No install (agent telemetry)">
      <p>
        Claude Code, Codex, Gemini CLI, Qwen Code and GitHub Copilot CLI can send their own usage here over
        OpenTelemetry: nothing to install, a few settings per machine. Prompts are not sent (prompt logging stays off).
        An agent counts through one channel per machine: a tokentally CLI linked here notices these settings and leaves
        that agent to them.
      </p>
      {token ? (
        <div data-testid="telemetry-settings">
          <p className="small">
            This machine&apos;s token is shown once. Put the settings of the agents you use in place:
          </p>
          {otlpSettings(location.origin, token).map((s) => (
            <section key={s.agent}>
              <h3>{s.agent}</h3>
              <p className="muted small">{s.where}</p>
              <CodeBlock code={s.code} label={`Settings for ${s.agent}`} wrap />
              {s.shell && <CodeBlock code={s.shell} label={`Shell profile line for ${s.agent}`} wrap />}
            </section>
          ))}
        </div>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void create();
          }}
        >
          <label>
            Machine name{' '}
            <input value={name} maxLength={128} onChange={(e) => setName(e.target.value)} aria-label="Machine name" />
          </label>{' '}
          <button type="submit" className="btn btn-primary">
            Create a token for agent telemetry
          </button>
        </form>
      )}
      {error && <ErrorNote message={error} retry={() => void create()} />}
    </Card>
  );
}
