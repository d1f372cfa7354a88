/** What fsck found wrong, named so an operator can go to it. */
export interface Finding {
  /** The code of the check that failed (the verifier's own code where it has one). */
  code: string;
  organization?: string;
  log?: string;
  /** The receipt's org_seq, or the Merkle node's level and index. */
  seq?: number;
  node?: { level: number; index: number };
  /** A file under DATA_DIR (a blob, a day file), with its line when it has lines. */
  file?: string;
  line?: number;
  message: string;
}

export interface FsckCounts {
  organizations: number;
  receipts: number;
  audit_receipts: number;
  merkle_nodes: number;
  signed_checkpoints: number;
  blobs: number;
  day_files: number;
  day_file_lines: number;
}

export interface FsckReport {
  ok: boolean;
  engine: 'sqlite' | 'postgres';
  checked: FsckCounts;
  findings: Finding[];
  /** Findings past the first 10,000 are only counted. */
  findings_omitted: number;
  seconds: number;
}

const MAX_FINDINGS = 10_000;

/** Findings as they are made, bounded in memory. */
export class Findings {
  readonly list: Finding[] = [];
  omitted = 0;

  add(finding: Finding): void {
    if (this.list.length < MAX_FINDINGS) this.list.push(finding);
    else this.omitted += 1;
  }
}

/** One finding as a line a person reads: where, then what. */
export function describeFinding(f: Finding): string {
  const where = [
    f.organization === undefined ? null : `organization ${f.organization}`,
    f.log === undefined ? null : `log ${f.log}`,
    f.seq === undefined ? null : `seq ${f.seq}`,
    f.node === undefined ? null : `node level ${f.node.level} index ${f.node.index}`,
    f.file === undefined ? null : `file ${f.file}`,
    f.line === undefined ? null : `line ${f.line}`,
  ].filter((part) => part !== null);
  return `${where.join(', ')}: ${f.code}: ${f.message}`;
}
