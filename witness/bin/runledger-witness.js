#!/usr/bin/env node
// `runledger-witness`: the compiled witness command.
import '../dist/main.js';
