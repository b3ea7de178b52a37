#!/usr/bin/env node
// Entry point of the installed CLI: runs the compiled code (npm run build).
import '../dist/cli/main.js';
