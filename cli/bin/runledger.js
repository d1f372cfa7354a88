#!/usr/bin/env node
// `runledger`: the compiled command-line client.
import '../dist/main.js';
