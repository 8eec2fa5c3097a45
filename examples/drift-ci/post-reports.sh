#!/usr/bin/env bash
# Keeps one GitHub issue per NetworkCalc account up to date from `ncalc drift --report-dir DIR`:
# an account with drift (or an error) gets its issue created once and edited on later runs;
# an account back in sync gets its open issue closed. The issue is found by the account's
# marker (an HTML comment on the report's first line), so renaming the title loses nothing.
#
#   post-reports.sh DIR        (needs gh, authenticated by GH_TOKEN, and jq)
set -euo pipefail
dir=${1:?usage: post-reports.sh DIR (the --report-dir of ncalc drift)}
label=networkcalc-drift
gh label create "$label" --description "NetworkCalc alerts differ from the code" --force >/dev/null

open_issues=$(gh issue list --state open --label "$label" --limit 1000 --json number,body)
count=$(jq '.reports | length' "$dir/index.json")
for ((i = 0; i < count; i++)); do
  report=$(jq -c ".reports[$i]" "$dir/index.json")
  marker=$(jq -r .marker <<<"$report")
  title=$(jq -r .title <<<"$report")
  status=$(jq -r .status <<<"$report")
  file="$dir/$(jq -r .file <<<"$report")"
  number=$(jq -r --arg m "$marker" '[.[] | select(.body | startswith($m))][0].number // empty' <<<"$open_issues")
  if [ "$status" = in_sync ]; then
    if [ -n "$number" ]; then
      gh issue close "$number" --comment "In sync again: the live alerts match the code."
    fi
  elif [ -n "$number" ]; then
    gh issue edit "$number" --title "$title" --body-file "$file"
  else
    gh issue create --title "$title" --label "$label" --body-file "$file"
  fi
done
