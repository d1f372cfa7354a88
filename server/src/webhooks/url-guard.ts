import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type BlockList } from 'node:net';
import { RunledgerError } from '@runledger/core';
import { type WebhookUrlGuard } from '@runledger/core/adapter';
import { addressAllowed, listed } from './address-policy.js';

const invalidInput = (message: string) => new RunledgerError('invalid_input', message);

export interface UrlPolicy {
  /** WEBHOOK_ALLOW_PRIVATE: ranges allowed despite the policy (and over http in production). */
  allow: BlockList;
  /** APP_ENV=production: https only, unless every address of the host is allowed. */
  httpsOnly: boolean;
}

/** The URL's host as an address or a name (brackets of an IPv6 literal removed). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Every address the host stands for: itself when it is one, else what DNS answers. */
export async function resolveAll(host: string): Promise<string[]> {
  if (isIP(host) !== 0) return [host];
  const answers = await dnsLookup(host, { all: true, verbatim: true });
  return answers.map((a) => a.address);
}

/**
 * Checks a webhook URL at creation: http or https only (https in production unless allowed), no
 * credentials in it, and every address its host resolves to allowed. Connecting checks again
 * (guarded-lookup.ts), since DNS may answer differently later.
 */
export function urlGuard(policy: UrlPolicy): WebhookUrlGuard {
  return {
    async check(text) {
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        throw invalidInput('url is not a URL');
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw invalidInput('url must be http or https');
      }
      if (url.username !== '' || url.password !== '') {
        throw invalidInput('url must not carry credentials');
      }
      let addresses: string[];
      try {
        addresses = await resolveAll(hostOf(url));
      } catch {
        throw invalidInput(`url host ${url.hostname} does not resolve`);
      }
      const refused = addresses.find((a) => !addressAllowed(a, policy.allow));
      if (refused !== undefined || addresses.length === 0) {
        throw invalidInput(
          `url resolves to ${refused ?? 'nothing'}, an address webhooks may not reach`,
        );
      }
      if (
        policy.httpsOnly &&
        url.protocol === 'http:' &&
        !addresses.every((a) => listed(policy.allow, a))
      ) {
        throw invalidInput('url must be https in production');
      }
    },
  };
}
