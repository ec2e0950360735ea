#!/bin/sh
# Minified and gzipped bytes each version of the modal focus trap adds to the bundle.
# focus-trap is not a dependency: install it beside this folder first, e.g.
#   (cd /tmp/ft && npm install focus-trap@7.8.0) && MODULES=/tmp/ft/node_modules sh measure.sh
set -e
here=$(cd "$(dirname "$0")" && pwd)
rolldown="$here/../../../frontend/node_modules/.bin/rolldown"
out=$(mktemp -d)
ln -s "${MODULES:?set MODULES to a node_modules folder holding focus-trap}" "$out/node_modules"
for name in hand library; do
  cp "$here/$name.js" "$out/$name.js"
  (cd "$out" && "$rolldown" "$name.js" --minify --format esm --platform browser --file "$name.min.js" >/dev/null)
  printf '%-8s %6d bytes minified, %6d gzipped\n' "$name" \
    "$(wc -c < "$out/$name.min.js")" "$(gzip -9 -c "$out/$name.min.js" | wc -c)"
done
rm -rf "$out"
