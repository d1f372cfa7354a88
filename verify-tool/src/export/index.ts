export {
  EXPORT_FORMAT,
  formatExportHeader,
  exportOriginSuffix,
  formatExportLine,
  type ExportHeader,
} from './format.js';
export { parseExportHeader, parseExportLine, type ParsedExportLine } from './parse.js';
export {
  ExportVerifier,
  verifyExportLines,
  type ExportLine,
  type ExportVerifyOptions,
  type ExportVerifyResult,
} from './verify.js';
