/**
 * What names a document a Steady export and which version of the format it is. Apart from the schema
 * (export-format.ts), so the web app can tell an export from any other file without the schema library.
 */
export const EXPORT_FORMAT = 'steady-export';
export const EXPORT_VERSION = 1;
