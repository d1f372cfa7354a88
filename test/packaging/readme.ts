/** docs/embedding.md's example: the ```ts block between the two markers, as printed. */
export function embeddingExample(doc: string): string {
  const found =
    /<!-- embedding-example:start -->\s*```ts\n([\s\S]*?)```\s*<!-- embedding-example:end -->/.exec(
      doc,
    );
  if (!found)
    throw new Error('docs/embedding.md has no embedding-example block between its markers');
  return found[1]!;
}

/** The packages the page's `npm install` line installs (`runledger-core-0.1.0.tgz` → `@runledger/core`). */
export function installLine(doc: string): string[] {
  const line = /^npm install (\S*runledger-.+)$/m.exec(doc)?.[1];
  if (!line) throw new Error('docs/embedding.md has no npm install line for the tarballs');
  return [...line.matchAll(/runledger-([a-z-]+?)-\d+\.\d+\.\d+\.tgz/g)].map(
    (m) => `@runledger/${m[1]}`,
  );
}
