#!/usr/bin/env node
// `runledger-verify`: the compiled verifier command.
import '../dist/cli/main.js';
