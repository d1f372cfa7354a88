import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompactTree } from '../merkle/compact.js';
import { leafHash } from '../merkle/hash.js';
import type { TreeNode } from '../merkle/nodes.js';
import { consistencyProof, inclusionProof } from '../merkle/proof.js';
import { formatSkey, formatVkey, noteSigner, parseVkey } from '../note/keys.js';
import { openNote, signNote } from '../note/note.js';
import { hex, toHex } from '../testing/vectors.js';

/*
 * Cross-check against Go's reference implementations (golang.org/x/mod/sumdb/tlog and .../note,
 * Debian packages golang-go and golang-golang-x-mod-dev, which .ci/run installs). The test fails
 * when Go is missing, unless RUNLEDGER_SKIP_GO_CROSSCHECK=1 says to skip it on purpose.
 */
const PROGRAM = fileURLToPath(new URL('../../crosscheck/main.go', import.meta.url));
const GOPATH = process.env.RUNLEDGER_GOPATH ?? '/usr/share/gocode';
const skip = process.env.RUNLEDGER_SKIP_GO_CROSSCHECK === '1';

interface GoAnswer {
  trees: { roots_hex: string[]; inclusion: string[][]; consistency: string[][] }[];
  sign: string[];
  open: { ok: boolean; text?: string }[];
}

function askGo(request: unknown): GoAnswer {
  const run = spawnSync('go', ['run', PROGRAM], {
    input: JSON.stringify(request),
    encoding: 'utf8',
    env: { ...process.env, GO111MODULE: 'off', GOPATH },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error !== undefined)
    throw new Error(
      `cannot run go (set RUNLEDGER_SKIP_GO_CROSSCHECK=1 to skip): ${run.error.message}`,
    );
  if (run.status !== 0) throw new Error(`go crosscheck failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as GoAnswer;
}

const leafData = fc.uint8Array({ minLength: 32, maxLength: 32 });
const treeArb = fc.array(leafData, { minLength: 1, maxLength: 80 });
const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 });
const textArb = fc
  .array(fc.stringMatching(/^[ -~]{1,40}$/), { minLength: 1, maxLength: 4 })
  .map((lines) => lines.map((l) => l + '\n').join(''));

describe.skipIf(skip)('cross-check with Go x/mod sumdb/tlog and sumdb/note', () => {
  it('finds the Go toolchain and x/mod sources', () => {
    expect(existsSync(`${GOPATH}/src/golang.org/x/mod/sumdb/tlog/tlog.go`)).toBe(true);
  });

  it('computes the same roots, inclusion proofs and consistency proofs for random trees', () => {
    const trees = fc.sample(treeArb, { numRuns: 40, seed: 13 });
    const request = trees.map((leaves) => {
      const n = leaves.length;
      const pairs = (k: number) =>
        Array.from({ length: 6 }, (_, i) => ((i * 7919 + k) % n) + (k === 0 ? 0 : 1));
      return {
        leaves_hex: leaves.map(toHex),
        inclusion: pairs(0).map((m) => [m, n]),
        consistency: pairs(1).map((m) => [m, n]),
      };
    });
    const go = askGo({ trees: request, sign: [], open: [] });
    request.forEach((req, t) => {
      const tree = CompactTree.empty();
      const nodes = new Map<string, Uint8Array>();
      const roots: string[] = [];
      for (const data of req.leaves_hex) {
        tree
          .append(leafHash(hex(data)))
          .forEach((node: TreeNode) => nodes.set(`${node.level}/${node.index}`, node.hash));
        roots.push(toHex(tree.root()));
      }
      // Go's tlog gives the empty tree a zero hash; RFC 9162 (and this package) SHA-256 of nothing.
      expect(roots).toEqual(go.trees[t]!.roots_hex.slice(1));
      const getNode = (l: number, i: number) => nodes.get(`${l}/${i}`)!;
      expect(req.inclusion.map(([m, n]) => inclusionProof(m!, n!, getNode).map(toHex))).toEqual(
        go.trees[t]!.inclusion,
      );
      expect(req.consistency.map(([m, n]) => consistencyProof(m!, n!, getNode).map(toHex))).toEqual(
        go.trees[t]!.consistency,
      );
    });
  });

  it('signs notes identically and each side opens the other one’s notes', () => {
    const cases = fc.sample(fc.tuple(seedArb, textArb), { numRuns: 25, seed: 13 });
    const name = 'runledger.example/orgs/org_x';
    const sign = cases.map(([seed, text]) => ({ skey: formatSkey(name, seed), text }));
    const ours = cases.map(([seed, text]) => signNote(text, [noteSigner(name, seed)]));
    const vkeys = cases.map(([seed]) => formatVkey(name, noteSigner(name, seed).publicKey));
    const tampered = ours.map((note) =>
      note.replace(/.\n\n/, (m) => (m[0] === 'x' ? 'y' : 'x') + '\n\n'),
    );
    const go = askGo({
      trees: [],
      sign,
      open: [
        ...ours.map((note, i) => ({ vkey: vkeys[i], note })),
        ...tampered.map((note, i) => ({ vkey: vkeys[i], note })),
      ],
    });
    expect(go.sign).toEqual(ours);
    expect(go.open).toEqual([
      ...cases.map(([, text]) => ({ ok: true, text })),
      ...cases.map(() => ({ ok: false })),
    ]);
    go.sign.forEach((note, i) =>
      expect(openNote(note, [parseVkey(vkeys[i]!)]).text).toBe(cases[i]![1]),
    );
  });
});
