#!/usr/bin/env bash
# Builds the backend example the way a Node service would: `policyc generate --targets typescript`
# from the repository's Policies/ (the apps' policy is the backend's too), then `tsc --strict`, then
# node. Usage: Examples/NodeConsumer/build.sh [POLICYC]
set -euo pipefail
cd "$(dirname "$0")"
policyc=${1:-${POLICYC:-$(cd ../.. && swift build --show-bin-path)/policyc}}
rm -rf build
"$policyc" generate --targets typescript --out build/generated ../../Policies
# The strict flags the generated module is held to, for the example's own code as well.
tsc --strict --noUnusedLocals --noImplicitReturns --module commonjs --target es2020 --lib es2020 \
    --rootDir . --outDir build/js src/*.ts build/generated/TypeScript/PlaybackPolicy.ts
node build/js/src/main.js
