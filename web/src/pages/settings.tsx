/**
 * @fileoverview Settings: profile and password (sign-in API), public visibility with the share link, badge and
 * card, API tokens, budgets, webhooks, zone, week start, theme, the data export and account deletion.
 */
import { useState, type FormEvent } from 'react';
import { call, type Answer } from '../api.js';
import { auth, useSession } from '../auth.js';
import { Card, CopyButton, ErrorNote } from '../components/common.js';
import { isValidZone } from '../lib/dates.js';
import { browserZone, savePrefs, usePrefs, type Theme } from '../prefs.js';
import { useLoad } from '../use-api.js';
import { DeleteAccount, ExportPanel } from './settings-account.js';
import { PasswordForm } from './settings-password.js';
import { BadgePreview } from './settings-share.js';
import { ProfileSettingsPanel } from './settings-profile.js';
import { ApiTokensPanel } from './settings-tokens.js';
import { WebhooksPanel } from './settings-webhooks.js';
import { BudgetsPanel } from './budgets-panel.js';

type Visibility = Answer<'svc-public-visibility'>;

function ProfileForm() {
  const session = useSession();
  const meta =
    session.status === 'signed-in'
      ? (session.session.user.user_metadata as { display_name?: string; avatar_url?: string })
      : {};
  const [name, setName] = useState(meta.display_name ?? '');
  const [avatar, setAvatar] = useState(meta.avatar_url ?? '');
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const { error } = await auth.updateUser({
      data: { display_name: name.trim() || null, avatar_url: avatar.trim() || null },
    });
    setMessage(error ? { ok: false, text: error.message } : { ok: true, text: 'Saved.' });
  };
  return (
    <Card id="profile" title="Profile">
      <form className="form" onSubmit={(e) => void save(e)}>
        <label className="field">
          <span>Display name</span>
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} autoComplete="nickname" />
          <small className="muted">
            Shown on the leaderboard when sharing is on. An e-mail address is never shown.
          </small>
        </label>
        <label className="field">
          <span>Avatar URL</span>
          <input
            type="url"
            value={avatar}
            onChange={(e) => setAvatar(e.target.value)}
            placeholder="https://…"
            maxLength={500}
          />
        </label>
        <div className="button-row">
          <button className="btn btn-primary" type="submit">
            Save profile
          </button>
          {message && (
            <span role="status" className={message.ok ? 'ok-text' : 'error-text'}>
              {message.text}
            </span>
          )}
        </div>
      </form>
    </Card>
  );
}

function SharingPanel() {
  const session = useSession();
  const userId = session.status === 'signed-in' ? session.session.user.id : null;
  const [version, setVersion] = useState(0);
  const vis = useLoad(`vis-${version}`, (signal) => call<Visibility>('svc-public-visibility', { signal }));
  const [error, setError] = useState<string>();
  const set = async (enabled: boolean) => {
    setError(undefined);
    try {
      await call('svc-public-visibility', { method: 'POST', body: { enabled } });
      setVersion((v) => v + 1);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const link = vis.data?.share_token ? `${location.origin}/share#${vis.data.share_token}` : null;
  return (
    <Card id="sharing" title="Public profile and sharing">
      {vis.error && <ErrorNote message={vis.error} retry={vis.retry} />}
      {vis.data && (
        <>
          <label className="switch-row">
            <input
              type="checkbox"
              role="switch"
              checked={vis.data.enabled}
              onChange={(e) => void set(e.target.checked)}
            />
            <span>
              <strong>Public</strong>: your name, avatar and token totals appear on the leaderboard and on a share link.
              Off: you are “Anonymous” to others.
            </span>
          </label>
          {link && (
            <div className="share-link">
              <label className="field">
                <span>Share link</span>
                <input readOnly value={link} onFocus={(e) => e.target.select()} data-testid="share-link" />
              </label>
              <div className="button-row">
                <CopyButton text={link} label="Copy link" />
                <button type="button" className="btn btn-small btn-ghost-danger" onClick={() => void set(false)}>
                  Revoke (turn sharing off)
                </button>
              </div>
            </div>
          )}
          <ProfileSettingsPanel isPublic={vis.data.enabled} />
          {userId && <BadgePreview userId={userId} isPublic={vis.data.enabled} />}
        </>
      )}
      {error && <ErrorNote message={error} />}
    </Card>
  );
}

function DisplayPrefs() {
  const prefs = usePrefs();
  const browser = browserZone();
  const [zone, setZone] = useState(prefs.zone ?? '');
  const valid = zone === '' || isValidZone(zone);
  return (
    <Card id="display" title="Display">
      <div className="form">
        <label className="field">
          <span>Default time zone</span>
          <input
            value={zone}
            placeholder={`Browser's: ${browser}`}
            onChange={(e) => {
              setZone(e.target.value);
              if (e.target.value === '' || isValidZone(e.target.value)) savePrefs({ zone: e.target.value || null });
            }}
            aria-invalid={!valid}
            list="all-zones"
          />
          <datalist id="all-zones">
            {(
              (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? []
            ).map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
          <small className={valid ? 'muted' : 'error-text'}>
            {valid ? 'Empty: the browser’s zone.' : 'Not a time zone name (e.g. Europe/Paris).'}
          </small>
        </label>
        <fieldset className="field">
          <legend>Weeks start on</legend>
          <div className="segmented">
            {(['sun', 'mon'] as const).map((d) => (
              <button
                key={d}
                type="button"
                aria-pressed={prefs.weekStart === d}
                onClick={() => savePrefs({ weekStart: d })}
              >
                {d === 'sun' ? 'Sunday' : 'Monday'}
              </button>
            ))}
          </div>
        </fieldset>
        <fieldset className="field">
          <legend>Theme</legend>
          <div className="segmented">
            {(['system', 'light', 'dark'] as Theme[]).map((t) => (
              <button key={t} type="button" aria-pressed={prefs.theme === t} onClick={() => savePrefs({ theme: t })}>
                {t[0]?.toUpperCase() + t.slice(1)}
              </button>
            ))}
          </div>
        </fieldset>
      </div>
    </Card>
  );
}

export function Settings() {
  return (
    <div className="page">
      <div className="page-head">
        <h1>Settings</h1>
      </div>
      <ProfileForm />
      <PasswordForm />
      <SharingPanel />
      <ApiTokensPanel />
      <BudgetsPanel />
      <WebhooksPanel />
      <DisplayPrefs />
      <ExportPanel />
      <DeleteAccount />
    </div>
  );
}
