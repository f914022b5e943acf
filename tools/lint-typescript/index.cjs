// The TypeScript 6 API, resolved from this folder so that it never replaces the project's TypeScript 7 `tsc`.
module.exports = require('typescript');
