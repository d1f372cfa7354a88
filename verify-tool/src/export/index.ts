export {
  EXPORT_FORMAT,
  formatExportHeader,
  formatExportLine,
  type ExportHeader,
} from './format.js';
export { parseExportHeader, parseExportLine, type ParsedExportLine } from './parse.js';
export { verifyExportLines, type ExportVerifyOptions, type ExportVerifyResult } from './verify.js';
