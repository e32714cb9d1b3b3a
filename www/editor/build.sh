#!/bin/sh
# Rebuilds the committed bundles loom-editor.js (CodeMirror) and
# loom-editor-fallback.js (textarea) from src/. Needs node + npm once;
# serving the page does not.
set -eu
cd "$(dirname "$0")"
[ -d node_modules ] || npm ci --no-audit --no-fund
npm run --silent build
ls -l loom-editor.js loom-editor-fallback.js
