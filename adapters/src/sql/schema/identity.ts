import type { ColumnTypes } from '../dialect.js';

/** Migration 1: users, organizations, memberships, one-time links, API keys, projects. */
export const IDENTITY_SCHEMA = (t: ColumnTypes): string => `
      CREATE TABLE users (
        id ${t.text} PRIMARY KEY,
        email ${t.text} NOT NULL UNIQUE,
        created_at ${t.text} NOT NULL
      );
      CREATE TABLE orgs (
        id ${t.text} PRIMARY KEY,
        name ${t.text} NOT NULL,
        created_at ${t.text} NOT NULL
      );
      CREATE TABLE memberships (
        user_id ${t.text} PRIMARY KEY REFERENCES users(id),
        org_id ${t.text} NOT NULL REFERENCES orgs(id),
        role ${t.text} NOT NULL CHECK (role IN ('owner', 'member')),
        created_at ${t.text} NOT NULL
      );
      CREATE INDEX memberships_org_page ON memberships (org_id, created_at, user_id);
      CREATE INDEX memberships_org_role ON memberships (org_id, role);
      CREATE TABLE links (
        id ${t.text} PRIMARY KEY,
        purpose ${t.text} NOT NULL CHECK (purpose IN ('sign_in', 'invite')),
        token_hash ${t.text} NOT NULL UNIQUE,
        email ${t.text} NOT NULL,
        org_id ${t.text} REFERENCES orgs(id),
        role ${t.text} CHECK (role IN ('owner', 'member')),
        created_by ${t.text} REFERENCES users(id),
        created_at ${t.text} NOT NULL,
        expires_at ${t.text} NOT NULL,
        used_at ${t.text},
        revoked_at ${t.text}
      );
      CREATE INDEX links_org_page ON links (org_id, purpose, created_at, id);
      CREATE INDEX links_email ON links (email, purpose, created_at);
      CREATE TABLE api_keys (
        key_id ${t.text} PRIMARY KEY,
        org_id ${t.text} NOT NULL REFERENCES orgs(id),
        name ${t.text} NOT NULL,
        prefix ${t.text} NOT NULL,
        secret_hash ${t.text} NOT NULL,
        created_at ${t.text} NOT NULL,
        created_by ${t.text} NOT NULL REFERENCES users(id),
        last_used_at ${t.text},
        revoked_at ${t.text}
      );
      CREATE INDEX api_keys_org_page ON api_keys (org_id, created_at, key_id);
      CREATE TABLE projects (
        id ${t.text} PRIMARY KEY,
        org_id ${t.text} NOT NULL REFERENCES orgs(id),
        name ${t.text} NOT NULL,
        created_at ${t.text} NOT NULL,
        created_by ${t.text} NOT NULL
      );
      CREATE INDEX projects_org_page ON projects (org_id, created_at, id);
    `;
