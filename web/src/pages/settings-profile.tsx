/**
 * @fileoverview Settings: the public profile page — its address (/u/<handle>) and which of its
 * fields anyone may see (getProfileSettings, setProfileSettings).
 */
import { useState, type FormEvent } from 'react';
import { call, type Answer } from '../api.js';
import { CopyButton, ErrorNote } from '../components/common.js';
import { Link } from '../router.js';
import { useLoad } from '../use-api.js';

const FIELDS = [
  ['heatmap', 'Activity heatmap', 'which days you used AI agents, over the last year'],
  ['totals', 'Token totals', 'tokens of the last year'],
  ['cost', 'Cost', 'what the tokens cost at list prices, in totals, models and tools'],
  ['models', 'Top models', 'the five models you used most'],
  ['sources', 'Top tools', 'Claude Code, Codex, Gemini, …'],
  ['streaks', 'Streaks', 'days in a row with usage, now and longest'],
  ['ranks', 'Ranks', 'your leaderboard ranks this week, month, all time'],
] as const;
type Field = (typeof FIELDS)[number][0];

type ProfileSettings = Answer<'svc-profile-settings'>;

export function ProfileSettingsPanel({ isPublic }: { isPublic: boolean }) {
  const [version, setVersion] = useState(0);
  const loaded = useLoad(`profile-settings-${version}`, (signal) =>
    call<ProfileSettings>('svc-profile-settings', { signal }),
  );
  const [handle, setHandle] = useState<string>();
  // Switches move at once (the saved settings follow); a refusal puts them back.
  const [fields, setFields] = useState<Record<Field, boolean>>();
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  const save = async (body: { handle?: string | null; fields?: Partial<Record<Field, boolean>> }) => {
    setMessage(undefined);
    try {
      await call('svc-profile-settings', { method: 'POST', body });
      setVersion((v) => v + 1);
      if (body.handle !== undefined)
        setMessage({ ok: true, text: body.handle ? 'Address saved.' : 'Address cleared.' });
    } catch (e) {
      setFields(undefined);
      setMessage({ ok: false, text: (e as Error).message });
    }
  };
  if (loaded.error) return <ErrorNote message={loaded.error} retry={loaded.retry} />;
  const s = loaded.data;
  if (!s) return null;
  const current = handle ?? s.handle ?? '';
  const shown = fields ?? s.fields;
  const toggle = (field: Field, on: boolean) => {
    setFields({ ...shown, [field]: on });
    void save({ fields: { [field]: on } });
  };
  const address = `${location.origin}${s.profile_path}`;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save({ handle: current.trim() === '' ? null : current });
  };
  return (
    <div className="profile-settings" data-testid="profile-settings">
      <h3>Profile page</h3>
      <form className="handle-row" onSubmit={submit}>
        <label className="field">
          <span>Address (handle)</span>
          <input
            value={current}
            onChange={(e) => setHandle(e.target.value)}
            maxLength={30}
            placeholder="e.g. ada-lovelace"
            autoCapitalize="none"
            spellCheck={false}
            data-testid="handle-input"
          />
        </label>
        <button className="btn" type="submit">
          Save address
        </button>
      </form>
      <p className="muted small">
        3–30 lowercase letters, digits and hyphens. Your page is <Link href={s.profile_path}>{address}</Link>
        {s.handle && ' (your user id address works too)'}.
      </p>
      <div className="button-row">
        <CopyButton text={address} label="Copy address" />
        {message && (
          <span role="status" className={message.ok ? 'ok-text' : 'error-text'}>
            {message.text}
          </span>
        )}
      </div>
      <fieldset className="profile-fields">
        <legend>{isPublic ? 'Shown on your page' : 'Shown on your page once Public is on'}</legend>
        {FIELDS.map(([field, label, hint]) => (
          <label key={field} className="switch-row">
            <input
              type="checkbox"
              role="switch"
              checked={shown[field]}
              onChange={(e) => toggle(field, e.target.checked)}
              data-testid={`field-${field}`}
            />
            <span>
              <strong>{label}</strong>: {hint}
            </span>
          </label>
        ))}
      </fieldset>
    </div>
  );
}
