/**
 * @fileoverview The server's wire types, generated from its /openapi.json by openapi-typescript
 * (`npm run gen:wire`, scripts/gen-wire.ts). Do not edit: change the route's schema and generate.
 * A test (test/scripts/wire.test.ts) fails when this file is stale.
 */
export interface paths {
  '/badge/{file}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A README badge of a public user's tokens ("AI tokens · 12.4M this week") */
    get: operations['getBadge'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/card/{file}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A profile card of a public user: tokens, rank, top model family, 12 weeks
     * @description `<user_id>.png`: the same card as an 880 × 360 PNG, for link previews.
     */
    get: operations['getCard'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-account-delete': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Delete the account and everything it owns
     * @description Removes the user, devices and their tokens, usage buckets and read models, leaderboard rows (the current snapshot stops showing them at once), sharing, sessions and refresh tokens, in one transaction. The password is re-entered; an account without one (external OpenID Connect) sends `confirm: "delete my account"`. A wrong password answers 403 and deletes nothing.
     */
    post: operations['deleteAccount'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-admin-invite-create': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create a sign-up invite
     * @description Answers the invite token (shown once) and its URL, the dashboard sign-up page with the invite filled in. Defaults: expires in 168 hours, one use, any e-mail address. Limited per caller (RATE_LIMIT_INVITES_PER_MINUTE). A user JWT of an admin account (403 for other users) or the service role key (docs/running-for-a-group.md).
     */
    post: operations['adminCreateInvite'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-admin-invite-revoke': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Revoke a sign-up invite
     * @description A revoked invite answers 403 `invite_invalid` at sign-up. Unknown id: 404. A user JWT of an admin account (403 for other users) or the service role key (docs/running-for-a-group.md).
     */
    post: operations['adminRevokeInvite'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-admin-invites': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the sign-up invites, newest first (the latest 200)
     * @description Never the tokens: only their SHA-256 is stored. A user JWT of an admin account (403 for other users) or the service role key (docs/running-for-a-group.md).
     */
    get: operations['adminListInvites'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-admin-reset-link': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Make a password reset link for an account
     * @description The link a recovery e-mail would carry (single use, one hour; an older one of the account stops working), for an admin to hand over where the server sends no mail. An account without a password (single sign-on): 422. A user JWT of an admin account (403 for other users) or the service role key (docs/running-for-a-group.md).
     */
    post: operations['adminCreateResetLink'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-admin-settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read who may sign up
     * @description The stored settings, or until an admin saves them SIGNUP_MODE and SIGNUP_EMAIL_DOMAINS. A user JWT of an admin account (403 for other users) or the service role key (docs/running-for-a-group.md).
     */
    get: operations['adminGetSignupSettings'];
    put?: never;
    /**
     * Change who may sign up
     * @description Stored in the database: from then on they rule over SIGNUP_MODE and SIGNUP_EMAIL_DOMAINS. Fields left out keep their value. A user JWT of an admin account (403 for other users) or the service role key (docs/running-for-a-group.md).
     */
    post: operations['adminUpdateSignupSettings'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-admin-user-delete': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Delete an account and everything it owns
     * @description The same deletion as the user's own deleteAccount. The last enabled admin: 409. A user JWT of an admin account (403 for other users) or the service role key (docs/running-for-a-group.md).
     */
    post: operations['adminDeleteUser'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-admin-user-update': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Disable or enable an account; make or revoke an admin
     * @description A disabled account cannot sign in (400 `user_banned`); its sessions end and its device and share tokens answer 401 at once, its data stays. A change that would leave the server without an enabled admin is 409 `last_admin`. A user JWT of an admin account (403 for other users) or the service role key (docs/running-for-a-group.md).
     */
    post: operations['adminUpdateUser'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-admin-users': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the accounts of this server (paged; search by e-mail address)
     * @description Oldest first: e-mail, display name, created, last upload, live devices, tokens and cost (USD) this UTC month, admin, disabled. A user JWT of an admin account (403 for other users) or the service role key (docs/running-for-a-group.md).
     */
    get: operations['adminListUsers'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-api-token-create': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create a read-only personal API token
     * @description The token (tt_pat_…) is answered this once. It reads what the user may read (GET operations) and is refused (403) every write. Needs a sign-in token: an API token may not create tokens.
     */
    post: operations['createApiToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-api-token-revoke': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Revoke one of the caller's API tokens
     * @description The token is refused (401) from the next request on, on every server process.
     */
    post: operations['revokeApiToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-api-tokens': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the caller's API tokens
     * @description Newest first, expired ones too until revoked; never the tokens themselves.
     */
    get: operations['listApiTokens'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-budget-alert-dismiss': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Dismiss a budget alert */
    post: operations['dismissBudgetAlert'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-budget-alerts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Budget alerts not dismissed, and webhooks disabled after failing (the dashboard banner) */
    get: operations['listBudgetAlerts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-budget-delete': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Delete a budget (and its alerts) */
    post: operations['deleteBudget'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-budget-set': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Set a budget (one per owner and period)
     * @description scope "user": the caller's own usage; scope "team": the team's members together (owners and admins only; 404 for others). Exactly one of limit_usd and limit_tokens. Setting it again for the same owner and period replaces its limit, thresholds and zone.
     */
    post: operations['setBudget'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-budgets': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The caller's and their teams' budgets, with the current period's spend */
    get: operations['listBudgets'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-debug-auth': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Report non-secret authentication state */
    get: operations['debugAuth'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-device-rename': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Rename one of the caller's devices */
    post: operations['renameDevice'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-device-revoke': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Revoke one of the caller's devices
     * @description Its token is refused (401) from the next request on; its uploads stay. Revoking again changes nothing.
     */
    post: operations['revokeDevice'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-device-token-issue': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Issue a device token */
    post: operations['issueDeviceToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-devices': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the caller's devices
     * @description Newest first; revoked devices only with include_revoked=1. last_upload_at is the time of the latest upload.
     */
    get: operations['listDevices'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-events-retention': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Delete per-upload audit records older than a cutoff
     * @description Usage is never purged. `dry_run=1` only counts.
     */
    post: operations['purgeEvents'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-export': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download all of your usage: half-hour buckets and daily totals with cost
     * @description Streams the caller's half-hour buckets (device, source, model, project, the five counts and billable tokens, the UTC half-hour) and daily totals with cost, as JSON or CSV, for UTC days `from`…`to` (inclusive; all time by default). Exports streaming at once are limited per account (2 by default) and per server process (8): one more is 429 with `Retry-After`. An export whose client reads nothing for 30 seconds (by default) is closed.
     */
    get: operations['exportUsage'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-ingest': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Upload half-hour usage buckets
     * @description Cumulative per-bucket totals: an upload replaces, for every (hour_start, source, model) it mentions, what this device stored. One request is one transaction. 409 when the upload would take the account past the stored buckets it may keep (MAX_STORED_BUCKETS_PER_USER); nothing of it is stored.
     */
    post: operations['ingestUsage'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-leaderboard': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read a page of the leaderboard
     * @description Users who are not public appear with user_id, display_name and avatar_url null. Signed-in callers also get `me`.
     */
    get: operations['getLeaderboard'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-leaderboard-profile': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read one user's leaderboard row
     * @description Public users for anyone; the caller's own always; everyone else 403.
     */
    get: operations['getLeaderboardProfile'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-leaderboard-refresh': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Refresh leaderboard snapshots now
     * @description All periods, or the one named. A refresh asked for while one runs waits for it and answers its result.
     */
    post: operations['refreshLeaderboard'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-link-code-exchange': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Exchange a link code for a device token
     * @description Public. Replay-safe: the same request_id within 24 hours returns the same device and token.
     */
    post: operations['exchangeLinkCode'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-link-code-init': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create a short-lived link code */
    post: operations['initLinkCode'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-pricing-sync': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Fetch and switch to newer model prices
     * @description Loads PRICING_SOURCE_URL (genai-prices data or an OpenRouter /models answer). On an unreachable or invalid source the current prices stay and the answer (still 200) says why.
     */
    post: operations['syncPricing'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-profile-settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read the public profile page's handle and which of its fields are public */
    get: operations['getProfileSettings'];
    put?: never;
    /**
     * Set or clear the handle (/u/<handle>) and switch fields of the public profile page
     * @description Fields left out stay as they are. A handle is 3–30 lowercase letters, digits and single hyphens, compared without case; a reserved word → 400, a handle of another user → 409.
     */
    post: operations['setProfileSettings'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-project-usage-summary': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** All-time totals of the top projects */
    get: operations['getProjectUsageSummary'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-public-profile': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read the public profile page of a handle or user id: only the fields its owner made public
     * @description Figures cover the last 52 weeks in UTC. A user who is not public (or none by that name) → 403; the owner always reads their own page.
     */
    get: operations['getPublicProfilePage'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-public-view-profile': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read the privacy-safe public profile behind a share token */
    get: operations['getPublicViewProfile'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-public-visibility': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read public visibility and the share token */
    get: operations['getPublicVisibility'];
    put?: never;
    /**
     * Turn public visibility on or off
     * @description On: a share token is issued (an existing live one is kept). Off: the token is revoked at once. Re-enabling issues a new token.
     */
    post: operations['setPublicVisibility'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-sync-ping': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Record a sync heartbeat */
    post: operations['recordSyncPing'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-team-create': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create a team (you are its owner) */
    post: operations['createTeam'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-team-delete': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Delete a team with its memberships and invites (owners) */
    post: operations['deleteTeam'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-team-invite-create': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create an invite link (owners and admins)
     * @description Role (default member; owner only by an owner), expiry (default 168 hours), uses (default 1), optionally one e-mail address, mailed the link when SMTP is configured. The token is answered this once.
     */
    post: operations['createTeamInvite'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-team-invite-revoke': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Revoke an invite link (owners and admins) */
    post: operations['revokeTeamInvite'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-team-invites': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A team's invites (owners and admins) */
    get: operations['listTeamInvites'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-team-join': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Join a team with an invite link
     * @description Answers the team with your role; a member already keeps their role. 404 for a link expired, used up, revoked or unknown; 403 for an invite made out to another e-mail address.
     */
    post: operations['joinTeam'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-team-leaderboard': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The leaderboard of a team's members
     * @description The public leaderboard's shape over the team's members only, every member named (members without usage last, rank null).
     */
    get: operations['getTeamLeaderboard'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-team-member-remove': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Remove a member, or leave (your own user_id)
     * @description Admins remove members, owners anyone; anyone may leave, except the last owner (409: hand the team over or delete it).
     */
    post: operations['removeTeamMember'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-team-member-update': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Change a member's role (owners and admins; the owner role by owners) */
    post: operations['updateTeamMember'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-team-members': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A team's members (e-mail addresses and last uploads for owners and admins) */
    get: operations['listTeamMembers'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-team-update': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Rename a team (owners and admins; the slug stays) */
    post: operations['updateTeam'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-team-usage': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A team's usage and cost, grouped by day, member, model, source or project
     * @description Exact totals of the team's members over local days in the zone. group_by=member and user_id (one member's usage) are for owners and admins (403 for members). Project rows are all-time counts without a cost.
     */
    get: operations['getTeamUsage'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-teams': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The teams you are in, with your role */
    get: operations['listTeams'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-usage-daily': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One row per local day, zero-filled, with totals */
    get: operations['getUsageDaily'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-usage-heatmap': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Activity heatmap of billable tokens per local day */
    get: operations['getUsageHeatmap'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-usage-hourly': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The half-hour buckets of one local day */
    get: operations['getUsageHourly'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-usage-model-breakdown': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Totals and cost per source and canonical model */
    get: operations['getUsageModelBreakdown'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-usage-monthly': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One row per local month, zero-filled */
    get: operations['getUsageMonthly'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-usage-summary': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Token totals and cost for a date range */
    get: operations['getUsageSummary'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-user-status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Account, pro status, subscriptions and installed devices */
    get: operations['getUserStatus'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-webhook-create': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Register a webhook endpoint
     * @description The signing secret (whsec_…) is answered this once. The URL must be https:// and must not resolve to a loopback, private, link-local or metadata address (unless the server sets WEBHOOK_ALLOW_PRIVATE). scope "team": owners and admins only (404 for others).
     */
    post: operations['createWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-webhook-delete': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Delete a webhook (and what it still had to deliver) */
    post: operations['deleteWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-webhook-deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A webhook's recent delivery attempts (newest first, at most 100) */
    get: operations['listWebhookDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-webhook-test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Send a webhook.test event now, once, and answer how it went */
    post: operations['testWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/functions/svc-webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The caller's and their teams' webhooks */
    get: operations['listWebhooks'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/logs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Receive an OTLP/HTTP logs export (agent telemetry)
     * @description OTLP/HTTP (application/x-protobuf or application/json, gzip or not). Token usage of known agents is counted into half-hour buckets (docs/otlp.md); everything else is answered in partial_success.
     */
    post: operations['otlpExportLogs'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Receive an OTLP/HTTP metrics export (agent telemetry)
     * @description OTLP/HTTP (application/x-protobuf or application/json, gzip or not). Token usage of known agents is counted into half-hour buckets (docs/otlp.md); everything else is answered in partial_success.
     */
    post: operations['otlpExportMetrics'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/traces': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Receive an OTLP/HTTP traces export (agent telemetry)
     * @description OTLP/HTTP (application/x-protobuf or application/json, gzip or not). Token usage of known agents is counted into half-hour buckets (docs/otlp.md); everything else is answered in partial_success.
     */
    post: operations['otlpExportTraces'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /** @description RFC 9457 problem document */
    Problem: {
      code: string;
      detail: string;
      /** @description The same as `code`, for clients that read `{error, message}` (docs/compatibility.md) */
      error: string;
      error_code?: string;
      errors?: {
        message: string;
        path: string;
      }[];
      /** @description The same as `detail`, for clients that read `{error, message}` */
      message: string;
      msg?: string;
      status: number;
      title: string;
      type: string;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getBadge: {
    parameters: {
      query?: {
        /** @description default all */
        metric?: 'all' | 'gpt' | 'claude' | 'other';
        /** @description default week */
        period?: 'week' | 'month' | 'total';
      };
      header?: never;
      path: {
        /** @description <user_id>.svg */
        file: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description An SVG image (a neutral "not public" one for anyone who is not public). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'image/svg+xml': string;
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getCard: {
    parameters: {
      query?: {
        /** @description default all */
        metric?: 'all' | 'gpt' | 'claude' | 'other';
        /** @description default week */
        period?: 'week' | 'month' | 'total';
        /** @description default light */
        theme?: 'light' | 'dark';
      };
      header?: never;
      path: {
        /** @description <user_id>.svg */
        file: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description An SVG image (a neutral "not public" one for anyone who is not public). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'image/png': string;
          'image/svg+xml': string;
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteAccount: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description accounts without a password (external OpenID Connect sign-in): the words "delete my account" */
          confirm?: string;
          /** @description the account password, re-entered */
          password?: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            deleted: true;
            /** Format: uuid */
            user_id: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Rate limit exceeded (see Retry-After) */
      429: {
        headers: {
          /** @description Seconds to wait before retrying */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  adminCreateInvite: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description the only e-mail address it works for */
          email?: string;
          /** @description hours until it expires (default 168: a week) */
          expires_in_hours?: number;
          /** @description sign-ups it allows (default 1) */
          max_uses?: number;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: date-time */
            expires_at: string;
            /** Format: uuid */
            id: string;
            /** @description shown once; only its SHA-256 is stored */
            invite_token: string;
            /** @description the dashboard's sign-up page with the invite filled in */
            url: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Rate limit exceeded (see Retry-After) */
      429: {
        headers: {
          /** @description Seconds to wait before retrying */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  adminRevokeInvite: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          id: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            /** @enum {boolean} */
            revoked: true;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  adminListInvites: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            invites: {
              /** Format: date-time */
              created_at: string;
              created_by: string | null;
              email: string | null;
              /** Format: date-time */
              expires_at: string;
              /** Format: uuid */
              id: string;
              max_uses: number;
              revoked_at: string | null;
              status: 'live' | 'expired' | 'spent' | 'revoked';
              uses: number;
            }[];
          };
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  adminCreateResetLink: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          user_id: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: date-time */
            expires_at: string;
            /** @description the password reset link (from PUBLIC_URL), single use */
            url: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Error */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  adminGetSignupSettings: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            signup_email_domains: string[];
            /** @description open, invite or closed */
            signup_mode: 'open' | 'invite' | 'closed';
          };
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  adminUpdateSignupSettings: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description domains allowed to sign up without an invite (empty: any) */
          signup_email_domains?: string[];
          /** @description open, invite or closed */
          signup_mode?: 'open' | 'invite' | 'closed';
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            signup_email_domains: string[];
            /** @description open, invite or closed */
            signup_mode: 'open' | 'invite' | 'closed';
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  adminDeleteUser: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          user_id: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            deleted: true;
            /** Format: uuid */
            user_id: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Request conflicts with existing state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  adminUpdateUser: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          admin?: boolean;
          disabled?: boolean;
          /** Format: uuid */
          user_id: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            admin: boolean;
            disabled: boolean;
            /** Format: uuid */
            user_id: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Request conflicts with existing state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  adminListUsers: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
        /** @description part of the e-mail address */
        q?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            limit: number;
            offset: number;
            /** @description users matching q */
            total: number;
            users: {
              admin: boolean;
              /** @description cost this UTC calendar month, USD with six decimals */
              cost_this_month_usd: string;
              /** Format: date-time */
              created_at: string;
              /** @description live (not revoked) devices */
              devices: number;
              disabled: boolean;
              display_name: string | null;
              email: string | null;
              /** Format: uuid */
              id: string;
              last_upload_at: string | null;
              /** @description total tokens this UTC calendar month (decimal string) */
              tokens_this_month: string;
            }[];
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createApiToken: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          expires_in_days?: number;
          name: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: date-time */
            created_at: string;
            expires_at: string | null;
            /** Format: uuid */
            id: string;
            name: string;
            /** @description The token (tt_pat_…): shown this once, never again. */
            token: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Request conflicts with existing state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Rate limit exceeded (see Retry-After) */
      429: {
        headers: {
          /** @description Seconds to wait before retrying */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  revokeApiToken: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          id: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            /** @enum {boolean} */
            revoked: true;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listApiTokens: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            tokens: {
              /** Format: date-time */
              created_at: string;
              expires_at: string | null;
              /** Format: uuid */
              id: string;
              /** @description Kept to the minute. */
              last_used_at: string | null;
              name: string;
            }[];
          };
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  dismissBudgetAlert: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          id: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            dismissed: true;
            /** Format: uuid */
            id: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listBudgetAlerts: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            alerts: {
              /** Format: uuid */
              budget_id: string;
              /** Format: uuid */
              id: string;
              period: 'week' | 'month';
              /** Format: date-time */
              period_start: string;
              /** Format: date-time */
              raised_at: string;
              scope: 'user' | 'team';
              /** @description the spend when raised, in the budget's unit (USD or billable tokens) */
              spend: string;
              team_id: string | null;
              threshold_percent: number;
              unit: 'usd' | 'tokens';
            }[];
            /** @description endpoints disabled after failing for 24 h */
            disabled_webhooks: {
              /** Format: date-time */
              disabled_at: string;
              /** Format: uuid */
              id: string;
              url: string;
            }[];
          };
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteBudget: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          id: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            deleted: true;
            /** Format: uuid */
            id: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  setBudget: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description billable tokens, a decimal string */
          limit_tokens?: string;
          /** @description USD, e.g. "250" or "99.50" */
          limit_usd?: string;
          period: 'week' | 'month';
          scope: 'user' | 'team';
          team_id?: string;
          /** @description per cent of the limit (default 50, 80, 100) */
          thresholds?: number[];
          /** @description IANA zone the period is measured in (default UTC) */
          tz?: string;
          /** @description default mon */
          week_starts_on?: 'mon' | 'sun';
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            limit_tokens: string | null;
            limit_usd: string | null;
            period: 'week' | 'month';
            /** Format: date-time */
            period_end: string;
            /** Format: date-time */
            period_start: string;
            scope: 'user' | 'team';
            /** @description per cent of the limit used (two decimals) */
            share: number;
            /** @description billable tokens */
            spend_tokens: string;
            spend_usd: string;
            state: 'ok' | 'warning' | 'exceeded';
            team_id: string | null;
            thresholds: number[];
            tz: string;
            week_starts_on: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listBudgets: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            budgets: {
              /** Format: uuid */
              id: string;
              limit_tokens: string | null;
              limit_usd: string | null;
              period: 'week' | 'month';
              /** Format: date-time */
              period_end: string;
              /** Format: date-time */
              period_start: string;
              scope: 'user' | 'team';
              /** @description per cent of the limit used (two decimals) */
              share: number;
              /** @description billable tokens */
              spend_tokens: string;
              spend_usd: string;
              state: 'ok' | 'warning' | 'exceeded';
              team_id: string | null;
              thresholds: number[];
              tz: string;
              week_starts_on: string;
            }[];
          };
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  debugAuth: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            authOk: boolean;
            error?: string | null;
            hasAnonKey: boolean;
            hasBearer: boolean;
            userId?: string | null;
          };
        };
      };
    };
  };
  renameDevice: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          device_id: string;
          name: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            device: {
              channels: {
                channel: string;
                source: string;
              }[];
              /** Format: uuid */
              device_id: string;
              last_sync_at: string | null;
              last_upload_at: string | null;
              /** Format: date-time */
              linked_at: string;
              name: string;
              platform: string;
              revoked_at: string | null;
            };
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  revokeDevice: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          device_id: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            device: {
              channels: {
                channel: string;
                source: string;
              }[];
              /** Format: uuid */
              device_id: string;
              last_sync_at: string | null;
              last_upload_at: string | null;
              /** Format: date-time */
              linked_at: string;
              name: string;
              platform: string;
              revoked_at: string | null;
            };
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  issueDeviceToken: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          device_name?: string;
          platform?: string;
          /** Format: uuid */
          user_id?: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: date-time */
            created_at?: string;
            /** Format: uuid */
            device_id: string;
            token: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Request conflicts with existing state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Rate limit exceeded (see Retry-After) */
      429: {
        headers: {
          /** @description Seconds to wait before retrying */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listDevices: {
    parameters: {
      query?: {
        include_revoked?: '0' | '1';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            devices: {
              channels: {
                channel: string;
                source: string;
              }[];
              /** Format: uuid */
              device_id: string;
              last_sync_at: string | null;
              last_upload_at: string | null;
              /** Format: date-time */
              linked_at: string;
              name: string;
              platform: string;
              revoked_at: string | null;
            }[];
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  purgeEvents: {
    parameters: {
      query?: {
        /** @description Delete upload events older than this many days. */
        days?: number;
        /** @description 1: only count what would be deleted. */
        dry_run?: '1' | '0' | 'true' | 'false';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: date-time */
            cutoff: string;
            days: number;
            deleted: number;
            dry_run: boolean;
            success: boolean;
          } & {
            [key: string]: unknown;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  exportUsage: {
    parameters: {
      query?: {
        /** @description json (default) or csv */
        format?: 'json' | 'csv';
        /** @description first UTC day (default: all time) */
        from?: string;
        /** @description last UTC day, inclusive (default: all time) */
        to?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The export, streamed as an attachment (docs/sharing.md, "Export"). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
          'text/csv': string;
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Rate limit exceeded (see Retry-After) */
      429: {
        headers: {
          /** @description Seconds to wait before retrying */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  ingestUsage: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          data?: {
            hourly?: ({
              cached_input_tokens?: number;
              /** @description ISO 8601 date-time with zone, on a UTC half-hour */
              hour_start: string;
              input_tokens?: number;
              model?: string;
              output_tokens?: number;
              project_key?: string;
              project_ref?: string;
              reasoning_output_tokens?: number;
              source?: string;
              total_tokens: number;
            } & {
              [key: string]: unknown;
            })[];
          };
          device_subscriptions?: ({
            planType?: string;
            product?: string;
            provider?: string;
            rateLimitTier?: string;
            tool?: string;
          } & {
            [key: string]: unknown;
          })[];
          hourly?: ({
            cached_input_tokens?: number;
            /** @description ISO 8601 date-time with zone, on a UTC half-hour */
            hour_start: string;
            input_tokens?: number;
            model?: string;
            output_tokens?: number;
            project_key?: string;
            project_ref?: string;
            reasoning_output_tokens?: number;
            source?: string;
            total_tokens: number;
          } & {
            [key: string]: unknown;
          })[];
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            inserted?: number;
            project_inserted?: number;
            project_skipped?: number;
            skipped?: number;
            success: boolean;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Request conflicts with existing state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Payload too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Rate limit exceeded (see Retry-After) */
      429: {
        headers: {
          /** @description Seconds to wait before retrying */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getLeaderboard: {
    parameters: {
      query: {
        limit?: number;
        /** @description Model family ranked: gpt (gpt-*, o1*…o4*, openai/*), claude (claude-*, anthropic/*), other (the rest), all. */
        metric?: 'all' | 'gpt' | 'claude' | 'other';
        offset?: number;
        /** @description UTC calendar window: ISO week (Monday start), calendar month, or all time. */
        period: 'week' | 'month' | 'total';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            entries: ({
              /** Format: uri */
              avatar_url: string | null;
              /** @description Stored cost of the usage in the period, USD with 6 places (the family's, or all for total). */
              claude_cost_usd: string;
              /** @description Billable tokens, decimal. */
              claude_tokens: string;
              display_name: string | null;
              /** @description Stored cost of the usage in the period, USD with 6 places (the family's, or all for total). */
              gpt_cost_usd: string;
              /** @description Billable tokens, decimal. */
              gpt_tokens: string;
              is_public: boolean;
              /** @description Stored cost of the usage in the period, USD with 6 places (the family's, or all for total). */
              other_cost_usd: string;
              /** @description Billable tokens, decimal. */
              other_tokens: string;
              /** @description Dense rank in the metric; null without usage in it. */
              rank: number | null;
              /** @description Stored cost of the usage in the period, USD with 6 places (the family's, or all for total). */
              total_cost_usd: string;
              /** @description Billable tokens, decimal. */
              total_tokens: string;
              /**
               * Format: uuid
               * @description Null unless the user is public.
               */
              user_id: string | null;
            } & {
              [key: string]: unknown;
            })[];
            /** Format: date */
            from: string;
            /** Format: date-time */
            generated_at: string;
            limit: number;
            /** @description The caller's own row (signed-in callers), even outside the page; null for anonymous callers. */
            me:
              | ({
                  /** Format: uri */
                  avatar_url: string | null;
                  /** @description Stored cost of the usage in the period, USD with 6 places (the family's, or all for total). */
                  claude_cost_usd: string;
                  /** @description Billable tokens, decimal. */
                  claude_tokens: string;
                  display_name: string | null;
                  /** @description Stored cost of the usage in the period, USD with 6 places (the family's, or all for total). */
                  gpt_cost_usd: string;
                  /** @description Billable tokens, decimal. */
                  gpt_tokens: string;
                  is_public: boolean;
                  /** @description Stored cost of the usage in the period, USD with 6 places (the family's, or all for total). */
                  other_cost_usd: string;
                  /** @description Billable tokens, decimal. */
                  other_tokens: string;
                  /** @description Dense rank in the metric; null without usage in it. */
                  rank: number | null;
                  /** @description Stored cost of the usage in the period, USD with 6 places (the family's, or all for total). */
                  total_cost_usd: string;
                  /** @description Billable tokens, decimal. */
                  total_tokens: string;
                  /**
                   * Format: uuid
                   * @description Null unless the user is public.
                   */
                  user_id: string | null;
                } & {
                  [key: string]: unknown;
                })
              | null;
            metric: string;
            offset: number;
            page: number;
            period: string;
            /** Format: date */
            to: string;
            total_entries: number;
            total_pages: number;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getLeaderboardProfile: {
    parameters: {
      query: {
        /** @description UTC calendar window: ISO week (Monday start), calendar month, or all time. */
        period?: 'week' | 'month' | 'total';
        user_id: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            entry: {
              /** Format: uri */
              avatar_url: string | null;
              /** @description Stored cost of the usage in the period, USD with 6 places (the family's, or all for total). */
              claude_cost_usd: string;
              /** @description Billable tokens, decimal. */
              claude_tokens: string;
              display_name: string | null;
              /** @description Stored cost of the usage in the period, USD with 6 places (the family's, or all for total). */
              gpt_cost_usd: string;
              /** @description Billable tokens, decimal. */
              gpt_tokens: string;
              is_public: boolean;
              /** @description Stored cost of the usage in the period, USD with 6 places (the family's, or all for total). */
              other_cost_usd: string;
              /** @description Billable tokens, decimal. */
              other_tokens: string;
              /** @description Dense rank in the metric; null without usage in it. */
              rank: number | null;
              /** @description Stored cost of the usage in the period, USD with 6 places (the family's, or all for total). */
              total_cost_usd: string;
              /** @description Billable tokens, decimal. */
              total_tokens: string;
              /**
               * Format: uuid
               * @description Null unless the user is public.
               */
              user_id: string | null;
            } & {
              [key: string]: unknown;
            };
            /** Format: date */
            from: string;
            /** Format: date-time */
            generated_at: string;
            period: string;
            /** Format: date */
            to: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  refreshLeaderboard: {
    parameters: {
      query?: {
        /** @description UTC calendar window: ISO week (Monday start), calendar month, or all time. */
        period?: 'week' | 'month' | 'total';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: date-time */
            generated_at: string;
            results: {
              /** Format: date */
              from: string;
              period: string;
              rows: number;
              /** Format: date */
              to: string;
            }[];
            success: boolean;
          } & {
            [key: string]: unknown;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  exchangeLinkCode: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          device_name?: string;
          link_code: string;
          platform?: string;
          request_id: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description Beyond the interface: the account the device joined, as the linking CLI names it ("linked to …"), so a code of someone else's account shows at once. Only the exchange answers it: a device token reads nothing of its account. */
            account?: {
              display_name: string | null;
              email: string | null;
            };
            /** Format: uuid */
            device_id: string;
            token: string;
            /** Format: uuid */
            user_id: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Request conflicts with existing state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Rate limit exceeded (see Retry-After) */
      429: {
        headers: {
          /** @description Seconds to wait before retrying */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  initLinkCode: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: date-time */
            expires_at: string;
            link_code: string;
          };
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Request conflicts with existing state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Rate limit exceeded (see Retry-After) */
      429: {
        headers: {
          /** @description Seconds to wait before retrying */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  syncPricing: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description Stored daily costs that changed when every stored cost was repriced with the new data (present when updated). */
            costs_repriced?: number;
            /** Format: date */
            effective_from: string;
            format: 'genai-prices' | 'openrouter' | null;
            models_seen: number;
            models_skipped: number;
            models_unchanged: number;
            models_updated: number;
            persisted: boolean;
            /** @description Why the prices were not updated (or not kept). */
            reason?: string;
            skipped: {
              id: string;
              reason: string;
            }[];
            source: string;
            source_url: string;
            success: boolean;
            /** @description True when analytics now use the fetched data. */
            updated: boolean;
          } & {
            [key: string]: unknown;
          };
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getProfileSettings: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description which parts of the profile page anyone may see */
            fields: {
              cost: boolean;
              heatmap: boolean;
              models: boolean;
              ranks: boolean;
              sources: boolean;
              streaks: boolean;
              totals: boolean;
            };
            handle: string | null;
            /** @description /u/<handle>, or /u/<user_id> without a handle */
            profile_path: string;
          };
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  setProfileSettings: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description which parts of the profile page anyone may see */
          fields?: {
            cost?: boolean;
            heatmap?: boolean;
            models?: boolean;
            ranks?: boolean;
            sources?: boolean;
            streaks?: boolean;
            totals?: boolean;
          };
          /** @description the page's address /u/<handle>: 30 characters at most, lowercase letters, digits, hyphens; null or "" clears it */
          handle?: string | null;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description which parts of the profile page anyone may see */
            fields: {
              cost: boolean;
              heatmap: boolean;
              models: boolean;
              ranks: boolean;
              sources: boolean;
              streaks: boolean;
              totals: boolean;
            };
            handle: string | null;
            /** @description /u/<handle>, or /u/<user_id> without a handle */
            profile_path: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Request conflicts with existing state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getProjectUsageSummary: {
    parameters: {
      query?: {
        /** @description adds each project's total_cost_usd (reads the raw buckets: costlier) */
        cost?: '1';
        /** @description adds timing information */
        debug?: '1';
        /** @description how many of the top projects */
        limit?: number;
        /** @description source tool, e.g. codex */
        source?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            all_time: boolean;
            debug?: {
              queries: number;
              query_ms: number;
              request_id: string;
              slow_query: boolean;
              slow_threshold_ms: number;
              status: number;
              total_ms: number;
            } & {
              [key: string]: unknown;
            };
            entries: ({
              billable_total_tokens: string;
              project_key: string;
              project_ref: string;
              total_cost_usd?: string;
              total_tokens: string;
            } & {
              [key: string]: unknown;
            })[];
            from: null;
            /** Format: date-time */
            generated_at: string;
            to: null;
          } & {
            [key: string]: unknown;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getPublicProfilePage: {
    parameters: {
      query: {
        /** @description a handle or a user id */
        user: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            avatar_url: string | null;
            display_name: string | null;
            /** @description which parts of the profile page anyone may see */
            fields: {
              cost: boolean;
              heatmap: boolean;
              models: boolean;
              ranks: boolean;
              sources: boolean;
              streaks: boolean;
              totals: boolean;
            };
            /** @description first day (UTC) of the year the figures cover */
            from: string;
            handle: string | null;
            heatmap?: {
              active_days: number;
              week_starts_on: string;
              weeks: (
                | ({
                    day: string;
                    level: number;
                    /** @description decimal integer */
                    value: string;
                  } & {
                    [key: string]: unknown;
                  })
                | null
              )[][];
            } & {
              [key: string]: unknown;
            };
            /** @description false only when the owner reads their own private page */
            is_public: boolean;
            models?: ({
              model: string;
              /** @description USD with six decimals */
              total_cost_usd?: string;
              /** @description decimal integer */
              total_tokens: string;
            } & {
              [key: string]: unknown;
            })[];
            ranks?: ({
              from: string;
              period: string;
              rank: number | null;
              to: string;
            } & {
              [key: string]: unknown;
            })[];
            sources?: ({
              source: string;
              /** @description USD with six decimals */
              total_cost_usd?: string;
              /** @description decimal integer */
              total_tokens: string;
            } & {
              [key: string]: unknown;
            })[];
            streaks?: {
              current_days: number;
              longest_days: number;
            } & {
              [key: string]: unknown;
            };
            /** @description last day (UTC), today */
            to: string;
            totals?: {
              /** @description decimal integer */
              billable_total_tokens?: string;
              /** @description decimal integer */
              input_tokens?: string;
              /** @description decimal integer */
              output_tokens?: string;
              /** @description USD with six decimals */
              total_cost_usd?: string;
              /** @description decimal integer */
              total_tokens?: string;
            } & {
              [key: string]: unknown;
            };
            /** Format: uuid */
            user_id: string;
          } & {
            [key: string]: unknown;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getPublicViewProfile: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            avatar_url: string | null;
            display_name: string | null;
            /** Format: uuid */
            user_id: string;
          };
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getPublicVisibility: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            enabled: boolean;
            /** @description tt_share_… bearer for getPublicViewProfile; present while enabled. */
            share_token?: string;
            /** Format: date-time */
            updated_at?: string;
          };
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  setPublicVisibility: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          enabled: boolean;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            enabled: boolean;
            /** @description tt_share_… bearer for getPublicViewProfile; present while enabled. */
            share_token?: string;
            /** Format: date-time */
            updated_at?: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  recordSyncPing: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: date-time */
            last_sync_at?: string;
            min_interval_minutes?: number;
            success: boolean;
            updated?: boolean;
          };
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createTeam: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            name: string;
            role: 'owner' | 'admin' | 'member';
            slug: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Request conflicts with existing state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteTeam: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          team_id: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            deleted: true;
            /** Format: uuid */
            team_id: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Request conflicts with existing state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createTeamInvite: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: email */
          email?: string;
          expires_in_hours?: number;
          max_uses?: number;
          role?: 'owner' | 'admin' | 'member';
          /** Format: uuid */
          team_id: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description An e-mail invite was queued (email given and SMTP configured). */
            emailed: boolean;
            /** Format: date-time */
            expires_at: string;
            /** Format: uuid */
            id: string;
            /** @description Shown this once; stored only as its SHA-256. */
            invite_token: string;
            url: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Request conflicts with existing state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  revokeTeamInvite: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          id: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            /** @enum {boolean} */
            revoked: true;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Request conflicts with existing state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listTeamInvites: {
    parameters: {
      query: {
        team_id: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            invites: {
              /** Format: date-time */
              created_at: string;
              email: string | null;
              /** Format: date-time */
              expires_at: string;
              /** Format: uuid */
              id: string;
              max_uses: number;
              revoked_at: string | null;
              role: 'owner' | 'admin' | 'member';
              state: 'active' | 'expired' | 'used_up' | 'revoked';
              uses: number;
            }[];
            /** Format: uuid */
            team_id: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Request conflicts with existing state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  joinTeam: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          invite_token: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            name: string;
            role: 'owner' | 'admin' | 'member';
            slug: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Request conflicts with existing state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getTeamLeaderboard: {
    parameters: {
      query: {
        metric?: 'all' | 'gpt' | 'claude' | 'other';
        period: 'week' | 'month' | 'total';
        team_id: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            entries: ({
              /** Format: uri */
              avatar_url: string | null;
              /** @description Stored cost of the usage in the period, USD with 6 places (the family's, or all for total). */
              claude_cost_usd: string;
              /** @description Billable tokens, decimal. */
              claude_tokens: string;
              display_name: string | null;
              /** @description Stored cost of the usage in the period, USD with 6 places (the family's, or all for total). */
              gpt_cost_usd: string;
              /** @description Billable tokens, decimal. */
              gpt_tokens: string;
              is_public: boolean;
              /** @description Stored cost of the usage in the period, USD with 6 places (the family's, or all for total). */
              other_cost_usd: string;
              /** @description Billable tokens, decimal. */
              other_tokens: string;
              /** @description Dense rank in the metric; null without usage in it. */
              rank: number | null;
              /** @description Stored cost of the usage in the period, USD with 6 places (the family's, or all for total). */
              total_cost_usd: string;
              /** @description Billable tokens, decimal. */
              total_tokens: string;
              /**
               * Format: uuid
               * @description Null unless the user is public.
               */
              user_id: string | null;
            } & {
              [key: string]: unknown;
            })[];
            /** Format: date */
            from: string;
            /** Format: date-time */
            generated_at: string;
            limit: number;
            /** @description The caller's own row (signed-in callers), even outside the page; null for anonymous callers. */
            me:
              | ({
                  /** Format: uri */
                  avatar_url: string | null;
                  /** @description Stored cost of the usage in the period, USD with 6 places (the family's, or all for total). */
                  claude_cost_usd: string;
                  /** @description Billable tokens, decimal. */
                  claude_tokens: string;
                  display_name: string | null;
                  /** @description Stored cost of the usage in the period, USD with 6 places (the family's, or all for total). */
                  gpt_cost_usd: string;
                  /** @description Billable tokens, decimal. */
                  gpt_tokens: string;
                  is_public: boolean;
                  /** @description Stored cost of the usage in the period, USD with 6 places (the family's, or all for total). */
                  other_cost_usd: string;
                  /** @description Billable tokens, decimal. */
                  other_tokens: string;
                  /** @description Dense rank in the metric; null without usage in it. */
                  rank: number | null;
                  /** @description Stored cost of the usage in the period, USD with 6 places (the family's, or all for total). */
                  total_cost_usd: string;
                  /** @description Billable tokens, decimal. */
                  total_tokens: string;
                  /**
                   * Format: uuid
                   * @description Null unless the user is public.
                   */
                  user_id: string | null;
                } & {
                  [key: string]: unknown;
                })
              | null;
            metric: string;
            offset: number;
            page: number;
            period: string;
            /** Format: uuid */
            team_id: string;
            /** Format: date */
            to: string;
            total_entries: number;
            total_pages: number;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  removeTeamMember: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          team_id: string;
          /** Format: uuid */
          user_id: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            removed: true;
            /** Format: uuid */
            team_id: string;
            /** Format: uuid */
            user_id: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Request conflicts with existing state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateTeamMember: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          role: 'owner' | 'admin' | 'member';
          /** Format: uuid */
          team_id: string;
          /** Format: uuid */
          user_id: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            role: 'owner' | 'admin' | 'member';
            /** Format: uuid */
            team_id: string;
            /** Format: uuid */
            user_id: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Request conflicts with existing state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listTeamMembers: {
    parameters: {
      query: {
        team_id: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            members: {
              display_name: string | null;
              email?: string | null;
              /** Format: date-time */
              joined_at: string;
              last_upload_at?: string | null;
              role: 'owner' | 'admin' | 'member';
              /** Format: uuid */
              user_id: string;
            }[];
            role: 'owner' | 'admin' | 'member';
            /** Format: uuid */
            team_id: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Request conflicts with existing state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateTeam: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name?: string;
          /** Format: uuid */
          team_id: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            name: string;
            role: 'owner' | 'admin' | 'member';
            slug: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Request conflicts with existing state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getTeamUsage: {
    parameters: {
      query: {
        /** @description first local day (default: to − 29 days); at most 800 days up to to */
        from?: string;
        /** @description member, and user_id, for owners and admins only */
        group_by?: 'day' | 'member' | 'model' | 'source' | 'project';
        /** @description only this model: raw name or model_id (not with group_by=project) */
        model?: string;
        /** @description only this source (not with group_by=project) */
        source?: string;
        team_id: string;
        /** @description last local day, inclusive (default: today in the zone) */
        to?: string;
        /** @description IANA time-zone name; wins over tz_offset_minutes */
        tz?: string;
        /** @description minutes east of UTC */
        tz_offset_minutes?: number;
        /** @description One member's usage (owners and admins only) */
        user_id?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description project rows: all-time counts (projects are kept all-time) */
            all_time?: boolean;
            /** Format: date */
            from: string;
            group_by: string;
            model?: string;
            rows: {
              key: string;
              label?: string;
              last_upload_at?: string | null;
              /** @description project rows are all-time counts without a cost */
              totals: {
                billable_total_tokens: string;
                cached_input_tokens: string;
                input_tokens: string;
                output_tokens: string;
                reasoning_output_tokens: string;
                total_cost_usd?: string;
                total_tokens: string;
              } & {
                [key: string]: unknown;
              };
            }[];
            source?: string;
            /** Format: uuid */
            team_id: string;
            /** Format: date */
            to: string;
            /** @description exact decimal strings; cost in USD with 6 places */
            totals: {
              billable_total_tokens: string;
              cached_input_tokens: string;
              input_tokens: string;
              output_tokens: string;
              reasoning_output_tokens: string;
              total_cost_usd: string;
              total_tokens: string;
            } & {
              [key: string]: unknown;
            };
            tz: string;
            /** Format: uuid */
            user_id?: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listTeams: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            teams: {
              /** Format: date-time */
              created_at: string;
              /** Format: uuid */
              id: string;
              members: number;
              name: string;
              role: 'owner' | 'admin' | 'member';
              slug: string;
            }[];
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Request conflicts with existing state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getUsageDaily: {
    parameters: {
      query?: {
        /** @description adds timing information */
        debug?: '1';
        /** @description one of the caller's devices (revoked ones too): that device's usage only */
        device_id?: string;
        /** @description first local day (default: to − 29 days); at most 800 days up to to */
        from?: string;
        /** @description raw model name or canonical model_id */
        model?: string;
        /** @description source tool, e.g. codex */
        source?: string;
        /** @description last local day, inclusive (default: today in the zone) */
        to?: string;
        /** @description IANA time-zone name; wins over tz_offset_minutes */
        tz?: string;
        /** @description minutes east of UTC */
        tz_offset_minutes?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: ({
              billable_total_tokens: string;
              cached_input_tokens: string;
              /** Format: date */
              day: string;
              input_tokens: string;
              output_tokens: string;
              reasoning_output_tokens: string;
              total_tokens: string;
            } & {
              [key: string]: unknown;
            })[];
            days: number;
            debug?: {
              queries: number;
              query_ms: number;
              request_id: string;
              slow_query: boolean;
              slow_threshold_ms: number;
              status: number;
              total_ms: number;
            } & {
              [key: string]: unknown;
            };
            /** Format: date */
            from: string;
            model: string | null;
            model_id: string | null;
            summary: {
              pricing: {
                /** Format: date */
                data_effective_from: string;
                default_model: string;
                default_profile: boolean;
                /** Format: date */
                effective_from: string;
                model: string | null;
                /** @description overlap, add or mixed */
                pricing_mode: string;
                source: string;
                unpriced_models: string[];
              } & {
                [key: string]: unknown;
              };
              /** @description exact decimal strings; cost in USD with 6 places */
              totals: {
                billable_total_tokens: string;
                cached_input_tokens: string;
                input_tokens: string;
                output_tokens: string;
                reasoning_output_tokens: string;
                total_cost_usd: string;
                total_tokens: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
            /** Format: date */
            to: string;
          } & {
            [key: string]: unknown;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getUsageHeatmap: {
    parameters: {
      query?: {
        /** @description adds timing information */
        debug?: '1';
        /** @description one of the caller's devices (revoked ones too): that device's usage only */
        device_id?: string;
        /** @description raw model name or canonical model_id */
        model?: string;
        /** @description source tool, e.g. codex */
        source?: string;
        /** @description last local day, inclusive (default: today in the zone) */
        to?: string;
        /** @description IANA time-zone name; wins over tz_offset_minutes */
        tz?: string;
        /** @description minutes east of UTC */
        tz_offset_minutes?: number;
        /** @description first day of a week (case-insensitive) */
        week_starts_on?: 'sun' | 'mon';
        /** @description weeks in the grid */
        weeks?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            active_days: number;
            debug?: {
              queries: number;
              query_ms: number;
              request_id: string;
              slow_query: boolean;
              slow_threshold_ms: number;
              status: number;
              total_ms: number;
            } & {
              [key: string]: unknown;
            };
            /** Format: date */
            from: string;
            streak_days: number;
            thresholds: {
              t1: string;
              t2: string;
              t3: string;
            } & {
              [key: string]: unknown;
            };
            /** Format: date */
            to: string;
            week_starts_on: string;
            weeks: (
              | ({
                  /** Format: date */
                  day: string;
                  level: number;
                  value: string;
                } & {
                  [key: string]: unknown;
                })
              | null
            )[][];
          } & {
            [key: string]: unknown;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getUsageHourly: {
    parameters: {
      query?: {
        /** @description the local day (default: today in the zone) */
        day?: string;
        /** @description adds timing information */
        debug?: '1';
        /** @description one of the caller's devices (revoked ones too): that device's usage only */
        device_id?: string;
        /** @description raw model name or canonical model_id */
        model?: string;
        /** @description source tool, e.g. codex */
        source?: string;
        /** @description IANA time-zone name; wins over tz_offset_minutes */
        tz?: string;
        /** @description minutes east of UTC */
        tz_offset_minutes?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: ({
              billable_total_tokens: string;
              cached_input_tokens: string;
              /** @description local start with its offset, e.g. 2026-03-08T01:30:00-05:00 */
              hour: string;
              /** @description UTC start of the half-hour bucket */
              hour_start: string;
              input_tokens: string;
              output_tokens: string;
              reasoning_output_tokens: string;
              total_tokens: string;
            } & {
              [key: string]: unknown;
            })[];
            /** Format: date */
            day: string;
            debug?: {
              queries: number;
              query_ms: number;
              request_id: string;
              slow_query: boolean;
              slow_threshold_ms: number;
              status: number;
              total_ms: number;
            } & {
              [key: string]: unknown;
            };
            sync: {
              last_sync_at: string | null;
              min_interval_minutes: number;
            } & {
              [key: string]: unknown;
            };
          } & {
            [key: string]: unknown;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getUsageModelBreakdown: {
    parameters: {
      query?: {
        /** @description adds timing information */
        debug?: '1';
        /** @description one of the caller's devices (revoked ones too): that device's usage only */
        device_id?: string;
        /** @description first local day (default: to − 29 days); at most 800 days up to to */
        from?: string;
        /** @description source tool, e.g. codex */
        source?: string;
        /** @description last local day, inclusive (default: today in the zone) */
        to?: string;
        /** @description IANA time-zone name; wins over tz_offset_minutes */
        tz?: string;
        /** @description minutes east of UTC */
        tz_offset_minutes?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            days: number;
            debug?: {
              queries: number;
              query_ms: number;
              request_id: string;
              slow_query: boolean;
              slow_threshold_ms: number;
              status: number;
              total_ms: number;
            } & {
              [key: string]: unknown;
            };
            /** Format: date */
            from: string;
            pricing: {
              /** Format: date */
              data_effective_from: string;
              default_model: string;
              default_profile: boolean;
              /** Format: date */
              effective_from: string;
              model: string | null;
              /** @description overlap, add or mixed */
              pricing_mode: string;
              source: string;
              unpriced_models: string[];
            } & {
              [key: string]: unknown;
            };
            sources: ({
              models: ({
                model: string;
                model_id: string;
                /** @description the model whose price prices this one, when it is not its own (docs/pricing.md) */
                priced_as?: string;
                /** @description exact decimal strings; cost in USD with 6 places */
                totals: {
                  billable_total_tokens: string;
                  cached_input_tokens: string;
                  input_tokens: string;
                  output_tokens: string;
                  reasoning_output_tokens: string;
                  total_cost_usd: string;
                  total_tokens: string;
                } & {
                  [key: string]: unknown;
                };
              } & {
                [key: string]: unknown;
              })[];
              source: string;
              /** @description exact decimal strings; cost in USD with 6 places */
              totals: {
                billable_total_tokens: string;
                cached_input_tokens: string;
                input_tokens: string;
                output_tokens: string;
                reasoning_output_tokens: string;
                total_cost_usd: string;
                total_tokens: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            })[];
            /** Format: date */
            to: string;
          } & {
            [key: string]: unknown;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getUsageMonthly: {
    parameters: {
      query?: {
        /** @description adds timing information */
        debug?: '1';
        /** @description one of the caller's devices (revoked ones too): that device's usage only */
        device_id?: string;
        /** @description raw model name or canonical model_id */
        model?: string;
        /** @description calendar months ending with the month of to */
        months?: number;
        /** @description source tool, e.g. codex */
        source?: string;
        /** @description last local day, inclusive (default: today in the zone) */
        to?: string;
        /** @description IANA time-zone name; wins over tz_offset_minutes */
        tz?: string;
        /** @description minutes east of UTC */
        tz_offset_minutes?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: ({
              billable_total_tokens: string;
              cached_input_tokens: string;
              input_tokens: string;
              /** @description YYYY-MM */
              month: string;
              output_tokens: string;
              reasoning_output_tokens: string;
              total_tokens: string;
            } & {
              [key: string]: unknown;
            })[];
            debug?: {
              queries: number;
              query_ms: number;
              request_id: string;
              slow_query: boolean;
              slow_threshold_ms: number;
              status: number;
              total_ms: number;
            } & {
              [key: string]: unknown;
            };
            /** Format: date */
            from: string;
            months: number;
            /** Format: date */
            to: string;
          } & {
            [key: string]: unknown;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getUsageSummary: {
    parameters: {
      query?: {
        /** @description adds timing information */
        debug?: '1';
        /** @description one of the caller's devices (revoked ones too): that device's usage only */
        device_id?: string;
        /** @description first local day (default: to − 29 days); at most 800 days up to to */
        from?: string;
        /** @description raw model name or canonical model_id */
        model?: string;
        /** @description source tool, e.g. codex */
        source?: string;
        /** @description last local day, inclusive (default: today in the zone) */
        to?: string;
        /** @description IANA time-zone name; wins over tz_offset_minutes */
        tz?: string;
        /** @description minutes east of UTC */
        tz_offset_minutes?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            days: number;
            debug?: {
              queries: number;
              query_ms: number;
              request_id: string;
              slow_query: boolean;
              slow_threshold_ms: number;
              status: number;
              total_ms: number;
            } & {
              [key: string]: unknown;
            };
            /** Format: date */
            from: string;
            model: string | null;
            model_id: string | null;
            pricing: {
              /** Format: date */
              data_effective_from: string;
              default_model: string;
              default_profile: boolean;
              /** Format: date */
              effective_from: string;
              model: string | null;
              /** @description overlap, add or mixed */
              pricing_mode: string;
              source: string;
              unpriced_models: string[];
            } & {
              [key: string]: unknown;
            };
            /** Format: date */
            to: string;
            /** @description exact decimal strings; cost in USD with 6 places */
            totals: {
              billable_total_tokens: string;
              cached_input_tokens: string;
              input_tokens: string;
              output_tokens: string;
              reasoning_output_tokens: string;
              total_cost_usd: string;
              total_tokens: string;
            } & {
              [key: string]: unknown;
            };
          } & {
            [key: string]: unknown;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getUserStatus: {
    parameters: {
      query?: {
        /** @description adds timing information */
        debug?: '1';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            created_at: string | null;
            debug?: {
              queries: number;
              query_ms: number;
              request_id: string;
              slow_query: boolean;
              slow_threshold_ms: number;
              status: number;
              total_ms: number;
            } & {
              [key: string]: unknown;
            };
            install: {
              active_devices: number;
              /** Format: date-time */
              as_of: string;
              has_active_device: boolean;
              last_sync_at: string | null;
              last_upload_at: string | null;
            } & {
              [key: string]: unknown;
            };
            pro: {
              active: boolean;
              /** Format: date-time */
              as_of: string;
              expires_at: string | null;
              sources: string[];
            } & {
              [key: string]: unknown;
            };
            storage?: {
              max_stored_buckets: number;
              stored_buckets: number;
            } & {
              [key: string]: unknown;
            };
            subscriptions: {
              /** Format: date-time */
              as_of: string;
              items: ({
                details: {
                  [key: string]: unknown;
                };
                device_id: string;
                /** Format: date-time */
                observed_at: string;
                plan_type: string | null;
                product: string | null;
                provider: string | null;
                rate_limit_tier: string | null;
                tool: string | null;
              } & {
                [key: string]: unknown;
              })[];
            } & {
              [key: string]: unknown;
            };
            /** Format: uuid */
            user_id: string;
          } & {
            [key: string]: unknown;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          description?: string;
          events: (
            | 'budget.threshold_crossed'
            | 'device.linked'
            | 'device.revoked'
            | 'team.member_joined'
            | 'team.member_left'
            | 'usage.daily'
          )[];
          scope: 'user' | 'team';
          team_id?: string;
          /** @description IANA zone of usage.daily's days (default UTC) */
          tz?: string;
          /** @description https:// (http:// only with WEBHOOK_ALLOW_PRIVATE) */
          url: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            /** @description The signing secret (whsec_…): shown this once. */
            secret: string;
            webhook: {
              /** Format: date-time */
              created_at: string;
              description: string | null;
              disabled_at: string | null;
              events: string[];
              failing_since: string | null;
              /** Format: uuid */
              id: string;
              scope: 'user' | 'team';
              team_id: string | null;
              tz: string;
              url: string;
            };
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Request conflicts with existing state */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          id: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            deleted: true;
            /** Format: uuid */
            id: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listWebhookDeliveries: {
    parameters: {
      query: {
        id: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            deliveries: {
              /** Format: date-time */
              attempted_at: string;
              duration_ms: number;
              error: string | null;
              event: string;
              /** @description the webhook-id header */
              message_id: string;
              status_code: number | null;
            }[];
            /** Format: uuid */
            id: string;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  testWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          id: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            delivered: boolean;
            duration_ms: number;
            error: string | null;
            message_id: string;
            status_code: number | null;
          };
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listWebhooks: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            webhooks: {
              /** Format: date-time */
              created_at: string;
              description: string | null;
              disabled_at: string | null;
              events: string[];
              failing_since: string | null;
              /** Format: uuid */
              id: string;
              scope: 'user' | 'team';
              team_id: string | null;
              tz: string;
              url: string;
            }[];
          };
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  otlpExportLogs: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description ExportLogsServiceResponse */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
          'application/x-protobuf': unknown;
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Payload too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Rate limit exceeded (see Retry-After) */
      429: {
        headers: {
          /** @description Seconds to wait before retrying */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  otlpExportMetrics: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description ExportMetricsServiceResponse */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
          'application/x-protobuf': unknown;
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Payload too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Rate limit exceeded (see Retry-After) */
      429: {
        headers: {
          /** @description Seconds to wait before retrying */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  otlpExportTraces: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description ExportTraceServiceResponse */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
          'application/x-protobuf': unknown;
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or invalid bearer token */
      401: {
        headers: {
          /** @description Always `Bearer` */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Authenticated credential lacks the required role */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Payload too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Rate limit exceeded (see Retry-After) */
      429: {
        headers: {
          /** @description Seconds to wait before retrying */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
}
