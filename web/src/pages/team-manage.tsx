/**
 * @fileoverview A team's management panel (docs/teams.md): the members with their roles (owners
 * and admins change roles and remove; anyone leaves), invite links (create with role, expiry,
 * uses and e-mail; list; revoke), and renaming or deleting the team.
 */
import { useState, type FormEvent } from 'react';
import { call } from '../api.js';
import { useSession } from '../auth.js';
import { Card, CopyButton, ErrorNote, Skeleton } from '../components/common.js';
import { navigate } from '../router.js';
import { useLoad } from '../use-api.js';
import { canManage, post, type Invite, type Member, type Role, type TeamEntry } from './team-data.js';

const ROLES: Role[] = ['member', 'admin', 'owner'];

function InviteForm({ team, onCreated }: { team: TeamEntry; onCreated: () => void }) {
  const [role, setRole] = useState<Role>('member');
  const [hours, setHours] = useState('168');
  const [uses, setUses] = useState('1');
  const [email, setEmail] = useState('');
  const [link, setLink] = useState<string>();
  const [error, setError] = useState<string>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    try {
      const body = {
        team_id: team.id,
        role,
        expires_in_hours: Number(hours),
        max_uses: Number(uses),
        ...(email.trim() ? { email: email.trim() } : {}),
      };
      setLink((await post<{ url: string }>('svc-team-invite-create', body)).url);
      onCreated();
    } catch (failed) {
      setError((failed as Error).message);
    }
  };
  return (
    <form className="inline-form" onSubmit={(e) => void submit(e)}>
      <select aria-label="Role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
        {ROLES.filter((r) => r !== 'owner' || team.role === 'owner').map((r) => (
          <option key={r}>{r}</option>
        ))}
      </select>
      <select aria-label="Expires" value={hours} onChange={(e) => setHours(e.target.value)}>
        <option value="24">1 day</option>
        <option value="168">7 days</option>
        <option value="720">30 days</option>
      </select>
      <input
        aria-label="Uses"
        type="number"
        min={1}
        max={1000}
        value={uses}
        onChange={(e) => setUses(e.target.value)}
      />
      <input
        aria-label="E-mail (optional)"
        type="email"
        placeholder="E-mail (optional)"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <button type="submit" className="btn btn-small btn-primary">
        Create invite link
      </button>
      {error && <ErrorNote message={error} />}
      {link && (
        <p className="created-secret">
          <code>{link}</code> <CopyButton text={link} />
        </p>
      )}
    </form>
  );
}

export function TeamManagement({ team, onChanged }: { team: TeamEntry; onChanged: () => void }) {
  const manager = canManage(team.role);
  const members = useLoad(`members|${team.id}`, (signal) =>
    call<{ members: Member[] }>('svc-team-members', { signal, params: { team_id: team.id } }),
  );
  const invites = useLoad(manager ? `invites|${team.id}` : null, (signal) =>
    call<{ invites: Invite[] }>('svc-team-invites', { signal, params: { team_id: team.id } }),
  );
  const session = useSession();
  const myId = session.status === 'signed-in' ? session.session.user.id : undefined;
  const [error, setError] = useState<string>();
  const act = async (op: string, body: Record<string, unknown>, after: () => void) => {
    setError(undefined);
    try {
      await post(op, body);
      after();
    } catch (failed) {
      setError((failed as Error).message);
    }
  };
  const leave = (userId: string) =>
    act('svc-team-member-remove', { team_id: team.id, user_id: userId }, () => {
      onChanged();
      navigate('/teams');
    });
  return (
    <Card id="team-manage" title="Members and invites">
      {error && <ErrorNote message={error} />}
      {members.data ? (
        <div className="table-wrap">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Role</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.data.members.map((m) => (
                <tr key={m.user_id}>
                  <th scope="row">{m.display_name ?? m.email ?? 'A member'}</th>
                  <td>
                    {manager ? (
                      <select
                        aria-label={`Role of ${m.display_name ?? m.email ?? 'member'}`}
                        value={m.role}
                        onChange={(e) =>
                          void act(
                            'svc-team-member-update',
                            { team_id: team.id, user_id: m.user_id, role: e.target.value },
                            members.retry,
                          )
                        }
                      >
                        {ROLES.map((r) => (
                          <option key={r}>{r}</option>
                        ))}
                      </select>
                    ) : (
                      m.role
                    )}
                  </td>
                  <td>
                    {manager && (
                      <button
                        type="button"
                        className="btn btn-small btn-ghost"
                        onClick={() =>
                          void act('svc-team-member-remove', { team_id: team.id, user_id: m.user_id }, members.retry)
                        }
                      >
                        Remove
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <Skeleton height={100} />
      )}
      {manager && (
        <>
          <h3>Invite links</h3>
          <InviteForm team={team} onCreated={invites.retry} />
          <ul className="invite-list">
            {invites.data?.invites.map((i) => (
              <li key={i.id}>
                {i.role} · {i.email ?? 'anyone'} · {i.uses}/{i.max_uses} used · {i.state}
                {i.state === 'active' && (
                  <button
                    type="button"
                    className="btn btn-small btn-ghost"
                    onClick={() => void act('svc-team-invite-revoke', { id: i.id }, invites.retry)}
                  >
                    Revoke
                  </button>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="toolbar">
        <button
          type="button"
          className="btn btn-small"
          onClick={() => {
            if (myId && confirm(`Leave ${team.name}? The team stops seeing your usage at once.`)) void leave(myId);
          }}
        >
          Leave team
        </button>
        {team.role === 'owner' && (
          <button
            type="button"
            className="btn btn-small btn-danger"
            onClick={() =>
              confirm(`Delete ${team.name} with its memberships and invites?`) &&
              void act('svc-team-delete', { team_id: team.id }, () => {
                onChanged();
                navigate('/teams');
              })
            }
          >
            Delete team
          </button>
        )}
      </div>
    </Card>
  );
}
