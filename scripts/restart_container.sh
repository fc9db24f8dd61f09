#!/bin/sh
# Deployment step 6 (specification, webhook): started detached by the deploy endpoint
# with the web container's id. It waits so that the endpoint's HTTP answer leaves
# first, then restarts the container, which ends the service that started it.
#
# Environment:
#   RESTART_DELAY_SECONDS  the wait (default 5, the specification's restart delay)
set -eu

if [ "$#" -ne 1 ] || [ -z "$1" ]; then
  echo "usage: $0 <container id>" >&2
  exit 2
fi

sleep "${RESTART_DELAY_SECONDS:-5}"
exec docker restart "$1"
