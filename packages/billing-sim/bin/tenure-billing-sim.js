#!/usr/bin/env node
// The tenure-billing-sim CLI: loads the build (npm links this committed file at install, before dist/ exists).
import '../dist/cli.js';
