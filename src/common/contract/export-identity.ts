/**
 * What names a document a Steady export, which version of the format it is, and how large an import may be. Apart
 * from the schema (export-format.ts), so the web app can tell an export from any other file without the schema
 * library.
 */
export const EXPORT_FORMAT = 'steady-export';
export const EXPORT_VERSION = 1;

/**
 * The most an import may send, in MB as people say it (binary: 20 × 1024 × 1024 bytes, what `POST /api/import`
 * takes). The web app refuses a larger file before reading it, naming this number (decision 0179).
 */
export const IMPORT_MAX_MB = 20;
export const IMPORT_BODY_LIMIT_BYTES = IMPORT_MAX_MB * 1024 * 1024;
