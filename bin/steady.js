#!/usr/bin/env node
// The `steady` command (`npx steady invite`, `npx steady users`, `npx steady migrate`); built by `npm install`.
import '../dist/cli/main.js';
