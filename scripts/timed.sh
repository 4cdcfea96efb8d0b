#!/usr/bin/env bash
# Runs a command and prints how long it took: `timed.sh LABEL CMD ARGS…`.
label=$1; shift
start=$SECONDS
echo "==> $label"
status=0; "$@" || status=$?
echo "==> $label: $((SECONDS - start))s (exit $status)"
exit $status
