import { describe, expect, it } from 'vitest';
import { shareJsonUrl } from './share-link.js';

const PAGE = 'https://ledger.example.com/verify';
const TOKEN = 'shr_0123456789abcdef';

describe('shareJsonUrl (the page’s reading of a pasted share link)', () => {
  it('fetches a link to the deployment serving the page, the PDF link too, without query or fragment', () => {
    const json = { url: `https://ledger.example.com/share/${TOKEN}` };
    for (const link of [
      `https://ledger.example.com/share/${TOKEN}`,
      `  https://ledger.example.com/share/${TOKEN}/pdf\n`,
      `https://ledger.example.com/share/${TOKEN}/?utm=x#top`,
    ]) {
      expect(shareJsonUrl(link, PAGE)).toEqual(json);
    }
    // A deployment under a path prefix keeps it.
    expect(
      shareJsonUrl(`https://h.example/rl/share/${TOKEN}`, 'https://h.example/rl/verify'),
    ).toEqual({ url: `https://h.example/rl/share/${TOKEN}` });
  });

  it('sends a link to another origin back to be downloaded there, naming both origins', () => {
    for (const link of [
      `https://other.example.com/share/${TOKEN}`,
      `http://ledger.example.com/share/${TOKEN}`,
      `https://ledger.example.com:8443/share/${TOKEN}`,
    ]) {
      const target = shareJsonUrl(link, PAGE);
      expect(target).toEqual({
        refused: expect.stringMatching(
          /^This link is to \S+, and this page may fetch only from https:\/\/ledger\.example\.com, the deployment serving it: open the link in a browser, download the share JSON there/,
        ) as string,
      });
      expect(JSON.stringify(target)).not.toContain(TOKEN);
    }
  });

  it('fetches nothing from a saved page', () => {
    expect(
      shareJsonUrl(`https://ledger.example.com/share/${TOKEN}`, 'file:///tmp/verify.html'),
    ).toEqual({
      refused: expect.stringMatching(
        /^This page is a saved file and fetches nothing: open the link/,
      ) as string,
    });
  });

  it('refuses what is not a share link', () => {
    for (const link of ['', 'not a link', `ledger.example.com/share/${TOKEN}`]) {
      expect(shareJsonUrl(link, PAGE)).toEqual({
        refused: expect.stringMatching(/^That is not a link/) as string,
      });
    }
    for (const link of [
      'https://ledger.example.com/verify',
      'https://ledger.example.com/share/',
      `https://ledger.example.com/share/${TOKEN}/other`,
      `javascript:alert(1)//share/${TOKEN}`,
    ]) {
      expect(shareJsonUrl(link, PAGE)).toEqual({
        refused: expect.stringMatching(/^That is not a share link/) as string,
      });
    }
  });
});
