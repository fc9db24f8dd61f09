#!/bin/sh
# Deployment step 2 (specification, webhook): pull the main branch of the checkout
# from its origin remote. An SSH origin (git@host:owner/repo.git or ssh://git@host/…)
# needs a key the container does not have, so it is rewritten to HTTPS for the pull
# and restored afterwards, on failure too (trap on EXIT).
#
# Environment:
#   DEPLOY_WORKSPACE  the checkout (default: the folder above this script)
#   DEPLOY_BRANCH     the branch to pull (default: main)
#   GIT_HTTPS_BASE    replaces https://<host> in the rewritten URL (tests point it to a file:// folder)
set -eu

workspace=${DEPLOY_WORKSPACE:-$(cd "$(dirname "$0")/.." && pwd)}
branch=${DEPLOY_BRANCH:-main}
cd "$workspace"

origin=$(git remote get-url origin)
https_url=
case "$origin" in
  git@*:*)
    host_and_path=${origin#git@}
    host=${host_and_path%%:*}
    path=${host_and_path#*:}
    https_url="${GIT_HTTPS_BASE:-https://$host}/${path#/}"
    ;;
  ssh://*)
    host_and_path=${origin#ssh://}
    host_and_path=${host_and_path#*@}
    host=${host_and_path%%/*}
    host=${host%%:*}
    path=${host_and_path#*/}
    https_url="${GIT_HTTPS_BASE:-https://$host}/$path"
    ;;
esac

if [ -n "$https_url" ]; then
  restore_origin() {
    git remote set-url origin "$origin"
    echo "origin restored to $origin"
  }
  trap restore_origin EXIT
  # A signal ends the script through exit, so the EXIT trap restores the remote.
  trap 'exit 130' INT TERM HUP
  git remote set-url origin "$https_url"
  echo "origin temporarily rewritten to $https_url"
fi

echo "Pulling $branch in $workspace"
git fetch origin "$branch"
git checkout "$branch"
git merge --ff-only "origin/$branch"
git log -1 --format='Now at %h %s'
