/**
 * A receipt's share link, pasted into the page: `<base>/share/<token>` (or its `/pdf`), as the
 * receipt PDF prints it. The page may fetch only from its own origin (CSP `connect-src 'self'`),
 * so a link to another deployment, or a page opened as a file, gets the way round instead: the
 * share JSON downloaded there and dropped here.
 */
export type ShareLinkTarget = { url: string } | { refused: string };

const ELSEWHERE =
  'open the link in a browser, download the share JSON there (or the receipt PDF) and drop it here';

/** Where the share JSON of `link` is, seen from the page at `pageUrl`, or why it cannot be fetched. */
export function shareJsonUrl(link: string, pageUrl: string): ShareLinkTarget {
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    return { refused: 'That is not a link: paste the whole share link, starting with https://.' };
  }
  const match = /^(.*\/share\/[^/]+?)(?:\/pdf)?\/?$/.exec(url.pathname);
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || match === null) {
    return { refused: 'That is not a share link: it ends in /share/ and the receipt’s token.' };
  }
  const page = new URL(pageUrl);
  if (page.protocol !== 'https:' && page.protocol !== 'http:') {
    return { refused: `This page is a saved file and fetches nothing: ${ELSEWHERE}.` };
  }
  if (url.origin !== page.origin) {
    return {
      refused: `This link is to ${url.origin}, and this page may fetch only from ${page.origin}, the deployment serving it: ${ELSEWHERE}.`,
    };
  }
  return { url: `${url.origin}${match[1]}` };
}
