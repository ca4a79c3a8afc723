#!/usr/bin/env bash
# Regenerates crates/server/src/auth/common_passwords.txt from the npm package
# @zxcvbn-ts/language-common (MIT): its frequency-ordered passwords.json, keeping the first 12,000
# entries of at least 6 characters (shorter ones are refused by the length rule already).
set -euo pipefail
version="${1:-4.1.3}"
out="$(cd "$(dirname "$0")/.." && pwd)/crates/server/src/auth/common_passwords.txt"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "@zxcvbn-ts/language-common@$version" >/dev/null && tar xzf ./*.tgz)
python3 - "$tmp/package/src/passwords.json" "$out" "$version" <<'PY'
import json, sys
src, out, version = sys.argv[1:]
words = [p for p in json.load(open(src))
         if len(p) >= 6 and p == p.strip() and "\n" not in p and not p.startswith("#")][:12000]
with open(out, "w") as f:
    f.write("# The 12,000 most common passwords of at least 6 characters, most common first: the first entries\n")
    f.write(f"# of at least 6 characters of passwords.json in @zxcvbn-ts/language-common {version} (npm; MIT licence,\n")
    f.write("# https://github.com/zxcvbn-ts/zxcvbn), a frequency-ordered list drawn from leaked-password corpora.\n")
    f.write("# Regenerate with scripts/common-passwords.sh. Lines starting with # are comments.\n")
    f.writelines(p + "\n" for p in words)
PY
echo "wrote $out"
