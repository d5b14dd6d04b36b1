#!/usr/bin/env bash
# Writes docker/kubernetes/rules-configmaps.yaml: one ConfigMap per rule folder, arbiter-rules-<folder>, holding the
# DRL of rules/<folder>/ and the decision tables of decision-tables/<folder>/ under their file names, with the labels
# serve --source kubernetes selects by. Run it after changing a packaged rule file (KubernetesManifestsTest fails until
# the file matches); a cluster's own changes are edits of the ConfigMaps themselves.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=docker/kubernetes/rules-configmaps.yaml
{
  echo "# The rules and decision tables as ConfigMaps, one per rule folder (rules/<folder>/ and decision-tables/<folder>/),"
  echo "# read by serve --source kubernetes: an analyst's table change is a kubectl edit (or apply) of one of these, and every"
  echo "# replica applies it without a new image. Generated from the packaged files by docker/kubernetes/rules-configmaps.sh;"
  echo "# KubernetesManifestsTest checks that they hold exactly the packaged files."
  echo "apiVersion: v1"
  echo "kind: List"
  echo "items:"
  for dir in rules/*/; do
    folder=$(basename "$dir")
    echo "  - apiVersion: v1"
    echo "    kind: ConfigMap"
    echo "    metadata:"
    echo "      name: arbiter-rules-$folder"
    echo "      labels: {app.kubernetes.io/name: arbiter, app.kubernetes.io/instance: arbiter, app.kubernetes.io/component: rules, app.kubernetes.io/part-of: arbiter, arbiter.io/rule-folder: $folder}"
    echo "    data:"
    for file in $( (ls "rules/$folder"; ls "decision-tables/$folder" 2>/dev/null) | LC_ALL=C sort); do
      path="rules/$folder/$file"
      [ -f "$path" ] || path="decision-tables/$folder/$file"
      # YAML block chomping: |- no final newline, | one, |+ all of them
      if [ -n "$(tail -c 1 "$path")" ]; then chomp="|-"; elif [ "$(tail -c 2 "$path" | wc -l)" = 2 ]; then chomp="|+"; else chomp="|"; fi
      echo "      $file: $chomp"
      sed -e 's/^/        /' -e 's/^ *$//' "$path"
      if [ -n "$(tail -c 1 "$path")" ]; then echo; fi
    done
  done
} > "$out"
echo "wrote $out"
