#!/bin/sh
# Publishes UVL models as a new dataset on a hub with nothing but curl (and the shell):
# create the dataset, add each model, publish, print the DOI.
#   HUB_URL=http://localhost:5000 HUB_TOKEN=hub_… sh publish-with-curl.sh phone.uvl car.uvl
# HUB_TOKEN is a personal access token with the write scope (create one at /profile/tokens).
set -eu
: "${HUB_URL:?set HUB_URL to the hub, e.g. http://localhost:5000}"
: "${HUB_TOKEN:?set HUB_TOKEN to a token with the write scope}"
[ "$#" -gt 0 ] || { echo "usage: $0 FILE.uvl..." >&2; exit 2; }
auth="Authorization: Bearer $HUB_TOKEN"

echo "== create the dataset"
created=$(curl -sS --fail-with-body -H "$auth" -H 'Content-Type: application/json' \
  -d '{"name": "Phones and cars", "description": "Two small feature models published with curl", "tags": "example, curl"}' \
  "$HUB_URL/api/v1/datasets/")
echo "$created"
id=$(printf '%s' "$created" | sed -n 's/.*"id":\([0-9][0-9]*\).*/\1/p')

for model in "$@"; do
  echo "== add $model"
  curl -sS --fail-with-body -H "$auth" -F "file=@$model" "$HUB_URL/api/v1/datasets/$id/files"
  echo
done

echo "== publish"
published=$(curl -sS --fail-with-body -H "$auth" -X POST "$HUB_URL/api/v1/datasets/$id/publish")
echo "$published"
case "$published" in
  *'"status":"ok"'*) printf '%s\n' "$published" | sed -n 's/.*"doi":"\([^"]*\)".*/DOI: \1/p' ;;
  *) echo "The deposit failed: the dataset stays unsynchronized at $HUB_URL/dataset/unsynchronized/$id/" >&2; exit 1 ;;
esac
