/** One export line: its text, and optionally the SHA-256 (hex) of its payload's exact bytes. */
export interface ExportLine {
  text: string;
  /** Set by a byte reader that hashed the payload slice itself (same bytes as the text's slice). */
  payloadSha256?: string;
}
