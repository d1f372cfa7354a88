import { notFound } from '../errors.js';
import type { ApiKeyRecord } from '../ports/storage.js';
import type { ApiKey, ApiKeyCreated, ApiKeyCreateBody } from '../schemas/identity.js';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { ApiKeyUseCases } from './api.js';
import type { Page } from '../paging.js';
import { requireOwner } from '../actor.js';
import { newId } from '../ids.js';
import { pageQuery, toPaged } from '../paging.js';
import { newApiKey } from '../secrets/index.js';
import { auditActor, recordAudit } from '../audit-receipts/record.js';

export function toApiKey(k: ApiKeyRecord): ApiKey {
  return {
    key_id: k.key_id,
    name: k.name,
    prefix: k.prefix,
    created_at: k.created_at,
    created_by: k.created_by,
    last_used_at: k.last_used_at,
    revoked_at: k.revoked_at,
  };
}

export function apiKeyUseCases(deps: Deps): ApiKeyUseCases {
  const { storage, clock, random } = deps;

  return {
    async list(actor: Actor, page: Page) {
      const owner = requireOwner(actor);
      const { query, limit } = pageQuery(page);
      const rows = await storage.read((tx) => tx.apiKeys.list(owner.orgId, query));
      return toPaged(rows, limit, (k) => ({ created_at: k.created_at, id: k.key_id }), toApiKey);
    },

    async create(actor: Actor, input: ApiKeyCreateBody): Promise<ApiKeyCreated> {
      const owner = requireOwner(actor);
      const { key_id: keyId, key, prefix, secret_hash } = newApiKey(newId('key', random), random);
      const now = clock.now();
      const record: ApiKeyRecord = {
        key_id: keyId,
        org_id: owner.orgId,
        name: input.name.trim(),
        prefix,
        secret_hash,
        created_at: now.toISOString(),
        created_by: owner.userId,
        last_used_at: null,
        revoked_at: null,
      };
      await storage.write(async (tx) => {
        await tx.apiKeys.insert(record);
        await recordAudit(
          tx,
          owner.orgId,
          auditActor(owner),
          { type: 'api_key.created', key_id: keyId, name: record.name, prefix },
          now,
        );
      });
      return {
        key_id: keyId,
        name: record.name,
        prefix: record.prefix,
        key,
        created_at: record.created_at,
      };
    },

    async revoke(actor: Actor, keyId: string) {
      const owner = requireOwner(actor);
      await storage.write(async (tx) => {
        const key = await tx.apiKeys.get(owner.orgId, keyId);
        if (!key) throw notFound('API key');
        const now = clock.now();
        // Revoking twice is harmless: the first revocation time is kept, and only it is audited.
        if (!(await tx.apiKeys.revoke(owner.orgId, keyId, now.toISOString()))) return;
        await recordAudit(
          tx,
          owner.orgId,
          auditActor(owner),
          {
            type: 'api_key.revoked',
            key_id: keyId,
            name: key.name,
            before: { revoked_at: null },
            after: { revoked_at: now.toISOString() },
          },
          now,
        );
      });
    },
  };
}
