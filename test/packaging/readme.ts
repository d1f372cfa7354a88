/** The README's embedding example: the ```ts block between the two markers, as printed. */
export function embeddingExample(readme: string): string {
  const found =
    /<!-- embedding-example:start -->\s*```ts\n([\s\S]*?)```\s*<!-- embedding-example:end -->/.exec(
      readme,
    );
  if (!found) throw new Error('README.md has no embedding-example block between its markers');
  return found[1]!;
}

/** The packages the embedding section's `npm install` line installs (`runledger-core-0.1.0.tgz` → `@runledger/core`). */
export function installLine(readme: string): string[] {
  const section = readme.slice(readme.indexOf('## Embedding the SDK'));
  const line = /^npm install (.+)$/m.exec(section)?.[1];
  if (!line) throw new Error('the embedding section has no npm install line');
  return [...line.matchAll(/runledger-([a-z-]+?)-\d+\.\d+\.\d+\.tgz/g)].map(
    (m) => `@runledger/${m[1]}`,
  );
}
