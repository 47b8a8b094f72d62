#!/usr/bin/env bash
# Everything CI checks of the VS Code extension, offline apart from the npm
# registry: a clean install from package-lock.json, type-check, lint, unit
# tests (the vscode module stubbed), and the .vsix packaged for real.
set -euo pipefail
cd "$(dirname "$0")/.."
npm ci --no-audit --no-fund
npm run typecheck
npm run lint
npm test
rm -f advertest.vsix
npx vsce package --out advertest.vsix
# The package must hold the compiled extension and its runtime dependency.
listing=$(npx vsce ls)
for want in out/extension.js package.json node_modules/vscode-languageclient/package.json; do
  grep -qx "$want" <<<"$listing" || { echo "vsix lacks $want" >&2; exit 1; }
done
if grep -q '^out/test/' <<<"$listing"; then echo "vsix carries the tests" >&2; exit 1; fi
echo "editors/vscode: OK ($(du -k advertest.vsix | cut -f1) KiB advertest.vsix)"
