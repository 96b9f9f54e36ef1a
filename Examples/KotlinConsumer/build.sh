#!/usr/bin/env bash
# Builds the Kotlin consumer the way an Android build would: `policyc generate` first, then the
# app's Kotlin compiled against Generated/Kotlin. Usage: Examples/KotlinConsumer/build.sh [POLICYC]
# POLICYC is the policyc to run: the argument, else $POLICYC, else `policyc` on the PATH (the release
# binary, as an Android CI image would have it: no Swift), else this repository's `swift build`.
set -euo pipefail
cd "$(dirname "$0")"
policyc=${1:-${POLICYC:-$(command -v policyc || echo "$(cd ../.. && swift build --show-bin-path)/policyc")}}
rm -rf build
"$policyc" generate --targets kotlin --out build/generated --kotlin-package com.example.player.policies Policies
# -Werror: the generated code must compile without a single warning.
kotlinc -Werror src/main/kotlin/Main.kt build/generated/Kotlin/*.kt -include-runtime -d build/app.jar
java -jar build/app.jar
