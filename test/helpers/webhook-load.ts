/** Runs `fn` over 0..n-1 with at most `width` in flight. */
export async function parallel(n: number, width: number, fn: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, n) }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}
