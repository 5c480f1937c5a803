-- The platform's own tables (never reachable through the REST API: no policy names them).

CREATE TABLE auth_accounts (
  id text PRIMARY KEY,
  email text NOT NULL,
  password_hash text,
  email_verified boolean NOT NULL DEFAULT false,
  display_name text,
  photo_url text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  last_sign_in_at timestamptz
);
CREATE UNIQUE INDEX auth_accounts_email ON auth_accounts (lower(email));

-- Refresh tokens are stored hashed. Each use rotates the token within its family; a token
-- used again after its grace period revokes the whole family (a stolen token was replayed).
CREATE TABLE auth_refresh_tokens (
  token_hash text PRIMARY KEY,
  family_id text NOT NULL,
  account_id text NOT NULL REFERENCES auth_accounts (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  rotated_at timestamptz,
  -- The pair handed out when this token was rotated, returned again inside the grace period
  -- (two tabs refreshing at once); encrypted with the auth secret.
  successor text,
  revoked_at timestamptz
);
CREATE INDEX auth_refresh_tokens_family ON auth_refresh_tokens (family_id);
CREATE INDEX auth_refresh_tokens_account ON auth_refresh_tokens (account_id);

-- Magic links, password resets and email verifications: single use, stored hashed.
CREATE TABLE auth_one_time_tokens (
  token_hash text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('magic', 'reset', 'verify', 'oauth')),
  email text NOT NULL,
  redirect_url text,
  -- The name a provider gave, for an OAuth sign-in's first account.
  display_name text,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- OAuth and OIDC sign-ins in progress (state, PKCE verifier, nonce), single use.
CREATE TABLE auth_oauth_states (
  state text PRIMARY KEY,
  provider text NOT NULL,
  code_verifier text NOT NULL,
  nonce text NOT NULL,
  redirect_url text NOT NULL,
  opener_origin text,
  mode text NOT NULL,
  client_state text,
  expires_at timestamptz NOT NULL
);

-- Every email the server sends; the outbox driver only writes here (and prints), the SMTP
-- driver also records what it relayed.
CREATE TABLE email_outbox (
  id text PRIMARY KEY,
  to_addresses text[] NOT NULL,
  cc text[] NOT NULL DEFAULT '{}',
  bcc text[] NOT NULL DEFAULT '{}',
  from_address text NOT NULL,
  reply_to text,
  subject text NOT NULL,
  html text,
  text text,
  driver text NOT NULL,
  status text NOT NULL DEFAULT 'sent' CHECK (status IN ('sent', 'failed')),
  error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_outbox_created_at ON email_outbox (created_at DESC);

-- Roles are matched to accounts by email, whatever its case.
CREATE INDEX user_roles_user_lower ON user_roles (lower(user_id));
CREATE INDEX users_email_lower ON users (lower(email));
