#!/usr/bin/env node
// `runledger-server` (what `npm start` runs after the build): the compiled entry point.
import '../dist/main.js';
